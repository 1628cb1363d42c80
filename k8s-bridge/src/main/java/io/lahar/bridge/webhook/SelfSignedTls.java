package io.lahar.bridge.webhook;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * A key and a self-signed certificate for 127.0.0.1, new at each start, made by the JDK's own
 * keytool (the JDK has no public API that signs a certificate, and no library is needed for one):
 * the TLS the webhook serves, and the PEM an API server is told to trust ({@code caBundle}).
 * The key never leaves the process: the key store keytool writes is read and deleted at once.
 */
record SelfSignedTls(SSLContext context, String caBundle) {

    private static final long KEYTOOL_SECONDS = 60;

    static SelfSignedTls generate() {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("lahar-webhook-tls");
            Path store = dir.resolve("webhook.p12");
            byte[] random = new byte[24];
            new SecureRandom().nextBytes(random);
            char[] password = HexFormat.of().formatHex(random).toCharArray();
            ProcessBuilder keytool = new ProcessBuilder(
                            Path.of(System.getProperty("java.home"), "bin", "keytool")
                                    .toString(),
                            "-genkeypair",
                            "-alias",
                            "webhook",
                            "-keyalg",
                            "EC",
                            "-groupname",
                            "secp256r1",
                            "-dname",
                            "CN=127.0.0.1",
                            "-ext",
                            "san=ip:127.0.0.1",
                            "-validity",
                            "3650",
                            "-storetype",
                            "PKCS12",
                            "-keystore",
                            store.toString(),
                            // keytool reads the password from the environment variable, not from its command line.
                            "-storepass:env",
                            "LAHAR_WEBHOOK_STOREPASS")
                    .redirectErrorStream(true);
            keytool.environment().put("LAHAR_WEBHOOK_STOREPASS", new String(password));
            Process process = keytool.start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(KEYTOOL_SECONDS, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IllegalStateException("keytool could not make the webhook's certificate: " + output.strip());
            }
            KeyStore keys = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(store)) {
                keys.load(in, password);
            }
            KeyManagerFactory km = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            km.init(keys, password);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(km.getKeyManagers(), null, null);
            String pem = "-----BEGIN CERTIFICATE-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                            .encodeToString(keys.getCertificate("webhook").getEncoded())
                    + "\n-----END CERTIFICATE-----\n";
            return new SelfSignedTls(
                    context, Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII)));
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("the webhook's certificate: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while making the webhook's certificate", e);
        } finally {
            if (dir != null) {
                try (var files = Files.list(dir)) {
                    for (Path f : files.toList()) {
                        Files.deleteIfExists(f);
                    }
                    Files.deleteIfExists(dir);
                } catch (IOException ignored) {
                    // best effort: the directory is the user's alone (0700), as temporary directories are made
                }
            }
        }
    }
}
