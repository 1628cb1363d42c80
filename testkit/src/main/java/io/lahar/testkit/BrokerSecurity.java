package io.lahar.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * The broker's second client listener, SASL_SSL with SCRAM-SHA-512, as a production cluster would
 * offer it: a self-signed certificate for 127.0.0.1 (made once with the JDK's keytool and kept in
 * {@code dir/kafka-tls/}), one SCRAM user, and the client settings that reach it, written to
 * {@code dir/kafka-secure-client.properties} (mode 0600: it holds the password). The plaintext
 * listener stays for the tests that do not exercise security; this one proves every Lahar client
 * works with the standard {@code security.protocol}/{@code sasl.*}/{@code ssl.*} settings and that
 * a client without credentials is refused.
 */
final class BrokerSecurity {

    static final String MECHANISM = "SCRAM-SHA-512";
    static final String USER = "lahar";
    static final String CLIENT_PROPERTIES = "kafka-secure-client.properties";
    private static final Duration KEYTOOL_TIMEOUT = Duration.ofSeconds(60);

    private final Path tlsDir;
    private final String storePassword;
    private final String userPassword;

    private BrokerSecurity(Path tlsDir, String storePassword, String userPassword) {
        this.tlsDir = tlsDir;
        this.storePassword = storePassword;
        this.userPassword = userPassword;
    }

    /** The material of the broker in {@code dir}: made on first use, read back afterwards. */
    static BrokerSecurity of(Path dir) {
        Path tlsDir = dir.resolve("kafka-tls");
        Path secrets = tlsDir.resolve("secrets.properties");
        try {
            if (!Files.exists(secrets)) {
                Files.createDirectories(tlsDir);
                BrokerSecurity made = new BrokerSecurity(tlsDir, PrivateFiles.secret(), PrivateFiles.secret());
                made.makeStores();
                Properties p = new Properties();
                p.setProperty("store.password", made.storePassword);
                p.setProperty("user.password", made.userPassword);
                PrivateFiles.write(secrets, p, "Secrets of the test broker's SASL_SSL listener (lahar-testkit).");
                made.writeClientProperties(dir);
                return made;
            }
            Properties p = new Properties();
            try (Reader in = Files.newBufferedReader(secrets, StandardCharsets.UTF_8)) {
                p.load(in);
            }
            BrokerSecurity read =
                    new BrokerSecurity(tlsDir, p.getProperty("store.password"), p.getProperty("user.password"));
            read.writeClientProperties(dir);
            return read;
        } catch (IOException e) {
            throw new InfraException(
                    "cannot prepare the broker's TLS material in " + tlsDir + ": " + e.getMessage(), e);
        }
    }

    /** The broker's settings for a listener named {@code SASL_SSL}. */
    String serverConfig() {
        return """
                sasl.enabled.mechanisms=%1$s
                listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;
                listener.name.sasl_ssl.ssl.keystore.type=PKCS12
                listener.name.sasl_ssl.ssl.keystore.location=%2$s
                listener.name.sasl_ssl.ssl.keystore.password=%3$s
                listener.name.sasl_ssl.ssl.key.password=%3$s
                """.formatted(MECHANISM, keystore().toString().replace("\\", "/"), storePassword);
    }

    /** What a client sets to reach the SASL_SSL listener (besides bootstrap.servers). */
    Map<String, String> clientConfig() {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("security.protocol", "SASL_SSL");
        config.put("sasl.mechanism", MECHANISM);
        config.put(
                "sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required username=\"" + USER + "\" password=\""
                        + userPassword + "\";");
        config.put("ssl.truststore.type", "PKCS12");
        config.put("ssl.truststore.location", truststore().toString());
        config.put("ssl.truststore.password", storePassword);
        return config;
    }

    String user() {
        return USER;
    }

    String userPassword() {
        return userPassword;
    }

    private Path keystore() {
        return tlsDir.resolve("broker.p12");
    }

    private Path truststore() {
        return tlsDir.resolve("truststore.p12");
    }

    private void writeClientProperties(Path dir) throws IOException {
        Properties p = new Properties();
        clientConfig().forEach(p::setProperty);
        PrivateFiles.write(
                dir.resolve(CLIENT_PROPERTIES),
                p,
                "Client settings for the test broker's SASL_SSL listener (lahar-testkit); add bootstrap.servers.");
    }

    private void makeStores() {
        Path cert = tlsDir.resolve("broker.crt");
        keytool(
                "-genkeypair",
                "-alias",
                "broker",
                "-keyalg",
                "EC",
                "-groupname",
                "secp256r1",
                "-validity",
                "3650",
                "-dname",
                "CN=127.0.0.1",
                "-ext",
                "SAN=ip:127.0.0.1,dns:localhost",
                "-keystore",
                keystore().toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                storePassword,
                "-keypass",
                storePassword);
        keytool(
                "-exportcert",
                "-alias",
                "broker",
                "-rfc",
                "-file",
                cert.toString(),
                "-keystore",
                keystore().toString(),
                "-storepass",
                storePassword);
        keytool(
                "-importcert",
                "-noprompt",
                "-alias",
                "broker",
                "-file",
                cert.toString(),
                "-keystore",
                truststore().toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                storePassword);
    }

    private static void keytool(String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            byte[] output;
            try (InputStream in = p.getInputStream()) {
                output = in.readAllBytes();
            }
            if (!p.waitFor(KEYTOOL_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new InfraException(
                        "keytool " + args[0] + " did not finish within " + KEYTOOL_TIMEOUT.toSeconds() + " s");
            }
            if (p.exitValue() != 0) {
                throw new InfraException("keytool " + args[0] + " failed (exit " + p.exitValue() + "): "
                        + new String(output, StandardCharsets.UTF_8).strip());
            }
        } catch (IOException e) {
            throw new InfraException("cannot run keytool: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InfraException("interrupted while running keytool", e);
        }
    }
}
