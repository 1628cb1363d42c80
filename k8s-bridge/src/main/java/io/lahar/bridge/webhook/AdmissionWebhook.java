package io.lahar.bridge.webhook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Volcano's admission webhooks, served by the bridge: AdmissionReview v1 over HTTPS at each
 * {@link ValidatedKind}'s and {@link MutatedKind}'s path (Volcano's), on 127.0.0.1 and a free port,
 * with a certificate made at start ({@link SelfSignedTls}). The validating answers are
 * {@link AdmissionReviews#review}'s, against the queues and templates the bridge has read, the
 * PodGroups' patch {@link PodGroupMutation#review}'s, against the namespaces it has read
 * ({@link KnownObjects}).
 */
public final class AdmissionWebhook implements AutoCloseable {

    /** The API server's own request body limit: no review of a valid object is larger. */
    static final int MAX_REVIEW_BYTES = 3 * 1024 * 1024 + 64 * 1024;

    private static final Logger LOG = Logger.getLogger(AdmissionWebhook.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpsServer server;
    private final ExecutorService executor;
    private final String caBundle;

    private AdmissionWebhook(HttpsServer server, ExecutorService executor, String caBundle) {
        this.server = server;
        this.executor = executor;
        this.caBundle = caBundle;
    }

    public static AdmissionWebhook start(KnownObjects known) {
        SelfSignedTls tls = SelfSignedTls.generate();
        HttpsServer server;
        try {
            server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new IllegalStateException("cannot serve the admission webhook: " + e.getMessage(), e);
        }
        server.setHttpsConfigurator(new HttpsConfigurator(tls.context()));
        for (ValidatedKind kind : ValidatedKind.values()) {
            server.createContext(
                    kind.path(),
                    exchange -> handle(exchange, review -> AdmissionReviews.review(review, kind, known::context)));
        }
        server.createContext(
                MutatedKind.POD_GROUPS.path(),
                exchange -> handle(exchange, review -> PodGroupMutation.review(review, known::namespaceAnnotations)));
        ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        server.setExecutor(executor);
        server.start();
        AdmissionWebhook webhook = new AdmissionWebhook(server, executor, tls.caBundle());
        LOG.infof(
                "admission webhooks serving https://127.0.0.1:%d",
                server.getAddress().getPort());
        return webhook;
    }

    private static void handle(HttpExchange exchange, Function<JsonNode, JsonNode> answering) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("POST")) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readNBytes(MAX_REVIEW_BYTES + 1);
            }
            JsonNode review;
            try {
                if (body.length > MAX_REVIEW_BYTES) {
                    throw new IOException("the review is over " + MAX_REVIEW_BYTES + " bytes");
                }
                review = JSON.readTree(body);
            } catch (IOException e) {
                byte[] why = ("not an AdmissionReview: " + e.getMessage()).getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(400, why.length);
                exchange.getResponseBody().write(why);
                return;
            }
            byte[] answer = JSON.writeValueAsBytes(answering.apply(review));
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
        }
    }

    /** Where the API server calls the webhook of {@code kind}. */
    public String url(ValidatedKind kind) {
        return "https://127.0.0.1:" + server.getAddress().getPort() + kind.path();
    }

    /** Where the API server calls the mutating webhook of {@code kind}. */
    public String url(MutatedKind kind) {
        return "https://127.0.0.1:" + server.getAddress().getPort() + kind.path();
    }

    /** The base64 PEM of the certificate, the {@code caBundle} of the webhook's registration. */
    public String caBundle() {
        return caBundle;
    }

    @Override
    public void close() {
        server.stop(0);
        executor.close();
    }
}
