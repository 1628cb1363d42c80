package io.lahar.emulator;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A Kubernetes cluster in this JVM, for the demo and the tests: an <b>emulated</b> API server on
 * 127.0.0.1 (fabric8's mock web server with its CRUD store, indexed by {@link IndexedCrudDispatcher},
 * behind {@link ClusterDispatcher}, which adds discovery, the Binding subresource, merge patches and
 * tables), {@link SimulatedNodes} and a {@link SimulatedKubelet} that runs bound pods through their
 * phases, reaching the API in this JVM with no connection ({@link InProcessApi}). It is not a real cluster: see {@code docs/embedded-cluster.md} for what works and how to use a real one instead.
 *
 * <pre>{@code
 * try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedCluster.Options.defaults()
 *     .withNodes(NodeSpec.parse("4x{cpu=8,memory=32Gi,gpu=0}")).withTimeScale(0.01))) {
 *   KubernetesClient client = cluster.client();
 *   ...
 * }
 * }</pre>
 */
public final class EmbeddedCluster implements AutoCloseable {

    /**
     * How the emulator is started.
     *
     * @param dataDir where the API's objects are kept across restarts (empty: in memory only)
     */
    public record Options(
            int port,
            List<NodeSpec> nodes,
            Optional<Path> kubeconfig,
            double timeScale,
            String namespace,
            Optional<Path> dataDir) {

        public Options {
            nodes = List.copyOf(nodes);
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("port: must be 0 (any free port) or 1..65535, got " + port);
            }
            if (!(timeScale >= 0) || Double.isInfinite(timeScale)) {
                throw new IllegalArgumentException("timeScale: must be a finite number >= 0, got " + timeScale);
            }
        }

        /** A free port, three default nodes, no kubeconfig file, real time, namespace {@code default}, in memory. */
        public static Options defaults() {
            return new Options(0, NodeSpec.defaults(3), Optional.empty(), 1.0, "default", Optional.empty());
        }

        public Options withPort(int newPort) {
            return new Options(newPort, nodes, kubeconfig, timeScale, namespace, dataDir);
        }

        public Options withNodes(List<NodeSpec> newNodes) {
            return new Options(port, newNodes, kubeconfig, timeScale, namespace, dataDir);
        }

        public Options withKubeconfig(Path file) {
            return new Options(port, nodes, Optional.of(file), timeScale, namespace, dataDir);
        }

        public Options withTimeScale(double newTimeScale) {
            return new Options(port, nodes, kubeconfig, newTimeScale, namespace, dataDir);
        }

        /**
         * Keep the objects in {@code dir}: a start on a directory that holds objects resumes with
         * them (its nodes included: {@link #nodes()} registers nodes on an empty one only).
         */
        public Options withDataDir(Path dir) {
            return new Options(port, nodes, kubeconfig, timeScale, namespace, Optional.of(dir));
        }
    }

    /** Volcano creates this queue when it is installed; jobs without {@code spec.queue} go to it. */
    public static final ResourceDefinitionContext QUEUES = new ResourceDefinitionContext.Builder()
            .withGroup("scheduling.volcano.sh")
            .withVersion("v1beta1")
            .withPlural("queues")
            .withKind("Queue")
            .withNamespaced(false)
            .build();

    /** fabric8's web server logs every request at INFO; held here so the level sticks (JUL keeps loggers weakly). */
    private static final Logger WEB_SERVER_LOG = Logger.getLogger(MockWebServer.class.getName());

    private static final Logger LOG = Logger.getLogger(EmbeddedCluster.class.getName());

    private final MockWebServer web;
    private final KubernetesClient client;
    private final SimulatedNodes nodes;
    private final SimulatedKubelet kubelet;
    private final String url;
    private final Options options;
    /** Null when the objects are kept in memory only. */
    private final ObjectJournal journal;

    private Path kubeconfigFile;
    private final BearerToken token;

    private EmbeddedCluster(
            MockWebServer web,
            KubernetesClient client,
            SimulatedNodes nodes,
            SimulatedKubelet kubelet,
            String url,
            Options options,
            ObjectJournal journal,
            BearerToken token) {
        this.token = token;
        this.journal = journal;
        this.web = web;
        this.client = client;
        this.nodes = nodes;
        this.kubelet = kubelet;
        this.url = url;
        this.options = options;
    }

    /**
     * Starts the API, the kubelet and the nodes, and writes the kubeconfig if asked; when this
     * returns, the nodes are registered, the kubeconfig file exists and {@code /readyz} answers 200
     * (the readiness signals of a script).
     */
    public static EmbeddedCluster start(Options options) {
        WEB_SERVER_LOG.setLevel(Level.WARNING);
        FastJson.install();
        Clock clock = Clock.systemUTC();
        ApiDiscovery discovery = ApiDiscovery.volcanoCluster();
        MockWebServer web = new MockWebServer();
        // TLS: kubectl sends a kubeconfig's token over https only. The certificate is self-signed
        // and new at each start; the kubeconfig says not to verify it (Kubeconfig).
        web.useHttps();
        ObjectJournal journal = options.dataDir().map(ObjectJournal::open).orElse(null);
        AtomicBoolean ready = new AtomicBoolean();
        BearerToken token;
        int restored;
        InProcessApi inProcess;
        try {
            token = BearerToken.of(options.dataDir());
            IndexedCrudDispatcher crud;
            if (journal == null) {
                crud = new IndexedCrudDispatcher(discovery.customResourceContexts());
                restored = 0;
            } else {
                JournaledCrudDispatcher journaled =
                        new JournaledCrudDispatcher(discovery.customResourceContexts(), journal);
                restored = journaled.restore();
                crud = journaled;
            }
            CrudStore store = new CrudStore(crud);
            ClusterDispatcher front = new ClusterDispatcher(
                    discovery, store, clock, () -> "127.0.0.1:" + web.getPort(), web::reset, ready::get, token);
            web.setDispatcher(front);
            inProcess = new InProcessApi(front, store, token);
            web.start(loopback(), options.port());
        } catch (RuntimeException e) {
            if (journal != null) {
                journal.close();
            }
            throw e;
        }
        String url = "https://127.0.0.1:" + web.getPort();
        KubernetesClient client = newClient(url, options.namespace(), token);
        SimulatedKubelet kubelet = new SimulatedKubelet(inProcess, clock, options.timeScale());
        EmbeddedCluster cluster = new EmbeddedCluster(
                web, client, new SimulatedNodes(client, clock), kubelet, url, options, journal, token);
        try {
            cluster.bootstrap();
            kubelet.start();
            if (restored == 0) {
                cluster.nodes.create(options.nodes());
            } else {
                LOG.log(
                        Level.INFO,
                        "restored " + restored + " objects from "
                                + options.dataDir().get()
                                + ", nodes "
                                + cluster.nodes.list().stream()
                                        .map(n -> n.getMetadata().getName())
                                        .toList()
                                + " (--nodes registers nodes in an empty data directory only)");
            }
            if (options.kubeconfig().isPresent()) {
                cluster.writeKubeconfig(options.kubeconfig().get());
            }
            ready.set(true);
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /**
     * What a fresh cluster with Volcano installed holds, the namespaces and Volcano's default queue,
     * each created unless it exists (restored from the data directory).
     */
    private void bootstrap() {
        for (String ns : List.of("default", "kube-system", "volcano-system", options.namespace())) {
            if (client.namespaces().withName(ns).get() == null) {
                client.namespaces()
                        .resource(new NamespaceBuilder()
                                .withNewMetadata()
                                .withName(ns)
                                .endMetadata()
                                .withNewStatus()
                                .withPhase("Active")
                                .endStatus()
                                .build())
                        .create();
            }
        }
        GenericKubernetesResource queue = new GenericKubernetesResourceBuilder()
                .withApiVersion("scheduling.volcano.sh/v1beta1")
                .withKind("Queue")
                .withNewMetadata()
                .withName("default")
                .endMetadata()
                .addToAdditionalProperties("spec", Map.of("weight", 1, "reclaimable", true))
                .build();
        if (client.genericKubernetesResources(QUEUES).withName("default").get() != null) {
            return; // restored, or created by someone else
        }
        GenericKubernetesResource created =
                client.genericKubernetesResources(QUEUES).resource(queue).create();
        created.setAdditionalProperty("status", Map.of("state", "Open"));
        client.genericKubernetesResources(QUEUES).resource(created).updateStatus();
    }

    /** A new client for the emulator, independent of the one {@link #client()} returns; close it yourself. */
    public KubernetesClient newClient() {
        return newClient(url, options.namespace(), token);
    }

    private static KubernetesClient newClient(String url, String namespace, BearerToken token) {
        Config config = new ConfigBuilder(Config.empty())
                .withMasterUrl(url)
                .withOauthToken(token.value())
                .withNamespace(namespace)
                .withHttp2Disable(true)
                .withTrustCerts(true)
                .build();
        return new KubernetesClientBuilder().withConfig(config).build();
    }

    /** The cluster's own client (the nodes' and the start-up's): use it, do not close it. */
    public KubernetesClient client() {
        return client;
    }

    /** The bearer token every API request must carry (the kubeconfig's). */
    public String token() {
        return token.value();
    }

    /** {@code https://127.0.0.1:<port>}. */
    public String url() {
        return url;
    }

    public int port() {
        return web.getPort();
    }

    public SimulatedNodes nodes() {
        return nodes;
    }

    public SimulatedKubelet kubelet() {
        return kubelet;
    }

    /** The kubeconfig written last, if any. */
    public Optional<Path> kubeconfig() {
        return Optional.ofNullable(kubeconfigFile);
    }

    /** Writes a kubeconfig for this cluster to {@code file} and returns its absolute path. */
    public synchronized Path writeKubeconfig(Path file) {
        try {
            kubeconfigFile = Kubeconfig.write(file, url, options.namespace(), token.value());
            return kubeconfigFile;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the kubeconfig " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        kubelet.close();
        client.close();
        web.shutdown();
        if (journal != null) {
            journal.close();
        }
    }

    private static InetAddress loopback() {
        try {
            return InetAddress.getByName("127.0.0.1");
        } catch (UnknownHostException e) {
            throw new IllegalStateException("127.0.0.1 does not resolve", e);
        }
    }
}
