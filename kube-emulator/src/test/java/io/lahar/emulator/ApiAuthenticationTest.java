package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The emulated API wants its kubeconfig's bearer token on every request but the health checks: an
 * anonymous client, or one with another token, gets 401 and never a secret (an MPI job's SSH key).
 */
class ApiAuthenticationTest {

    private static final HttpClient HTTP = TestHttp.client().build();

    @TempDir
    Path data;

    private EmbeddedCluster start() {
        return EmbeddedCluster.start(EmbeddedCluster.Options.defaults()
                .withNodes(NodeSpec.parse("1x{cpu=1,memory=1Gi}"))
                .withDataDir(data));
    }

    private static HttpResponse<String> get(EmbeddedCluster cluster, String path, String authorization)
            throws Exception {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create(cluster.url() + path)).GET();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void onlyTheKubeconfigsTokenReadsTheSecrets() throws Exception {
        try (EmbeddedCluster cluster = start()) {
            cluster.client()
                    .secrets()
                    .inNamespace("default")
                    .resource(new SecretBuilder()
                            .withNewMetadata()
                            .withName("mpi-ssh")
                            .endMetadata()
                            .withStringData(Map.of("id_rsa", "PRIVATE KEY"))
                            .build())
                    .create();
            String secret = "/api/v1/namespaces/default/secrets/mpi-ssh";

            for (String anonymous : new String[] {
                null, "Bearer lahar-embedded-no-auth", "Bearer " + cluster.token() + "x", cluster.token()
            }) {
                HttpResponse<String> refused = get(cluster, secret, anonymous);
                assertThat(refused.statusCode()).as(String.valueOf(anonymous)).isEqualTo(401);
                assertThat(refused.body())
                        .contains("\"reason\":\"Unauthorized\"")
                        .doesNotContain("PRIVATE")
                        .doesNotContain("id_rsa");
            }
            assertThat(get(cluster, "/api/v1/namespaces/default/secrets", null).statusCode())
                    .isEqualTo(401);
            assertThat(get(cluster, secret, "Bearer " + cluster.token()).statusCode())
                    .isEqualTo(200);
            // Health checks stay anonymous: supervisors and scripts poll them without a kubeconfig.
            assertThat(get(cluster, "/readyz", null).statusCode()).isEqualTo(200);
            assertThat(get(cluster, "/livez", null).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void aClientWithoutTheTokenIsRefusedOneWithTheKubeconfigIsNot() throws Exception {
        try (EmbeddedCluster cluster = start()) {
            Path kubeconfig = cluster.writeKubeconfig(data.resolve("kubeconfig"));
            try (KubernetesClient anonymous = new KubernetesClientBuilder()
                    .withConfig(new ConfigBuilder(Config.empty())
                            .withMasterUrl(cluster.url())
                            .withTrustCerts(true)
                            .withRequestRetryBackoffLimit(0)
                            .withHttp2Disable(true)
                            .build())
                    .build()) {
                assertThatThrownBy(() -> anonymous.nodes().list())
                        .isInstanceOf(KubernetesClientException.class)
                        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode())
                                .isEqualTo(401));
            }
            try (KubernetesClient fromFile = new KubernetesClientBuilder()
                    .withConfig(Config.fromKubeconfig(Files.readString(kubeconfig)))
                    .build()) {
                assertThat(fromFile.nodes().list().getItems()).hasSize(1);
            }
        }
    }

    @Test
    void theTokenIsKeptInTheDataDirectoryOwnerOnlyAndSurvivesARestart() throws Exception {
        String first;
        try (EmbeddedCluster cluster = start()) {
            first = cluster.token();
        }
        Path file = data.resolve(BearerToken.FILE);
        assertThat(Files.readString(file).strip()).isEqualTo(first);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");

        try (EmbeddedCluster again = start()) {
            assertThat(again.token()).isEqualTo(first);
        }
        try (EmbeddedCluster inMemory = EmbeddedCluster.start(
                EmbeddedCluster.Options.defaults().withNodes(NodeSpec.parse("1x{cpu=1,memory=1Gi}")))) {
            assertThat(inMemory.token()).isNotEqualTo(first).hasSizeGreaterThanOrEqualTo(43);
        }
    }

    @Test
    void aTokenFileOthersMayReadIsRefused() throws Exception {
        Files.writeString(data.resolve(BearerToken.FILE), "shared\n");
        Files.setPosixFilePermissions(data.resolve(BearerToken.FILE), PosixFilePermissions.fromString("rw-r--r--"));

        assertThatThrownBy(this::start).hasMessageContaining("mode 0600");
    }
}
