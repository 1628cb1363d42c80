package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The HTTPS clients the emulator calls webhooks with: one per {@code caBundle} and timeout, kept
 * while a configuration names them, so a review reuses the client's TLS context and its open
 * connections rather than making both again (a handshake per write would cost the whole cluster
 * its throughput, since writes are answered one at a time).
 */
final class WebhookClients {

    private static final int DEFAULT_TIMEOUT_SECONDS = 10;
    private static final int MAX_TIMEOUT_SECONDS = 30;

    private final Map<String, HttpClient> clients = new ConcurrentHashMap<>();

    /** The apiserver's bounds on {@code timeoutSeconds}: 10 by default, 1 to 30. */
    static Duration timeout(JsonNode webhook) {
        return Duration.ofSeconds(Math.min(
                MAX_TIMEOUT_SECONDS, Math.max(1, webhook.path("timeoutSeconds").asInt(DEFAULT_TIMEOUT_SECONDS))));
    }

    /** What tells two webhooks' clients apart: the certificates they trust and how long they wait. */
    static String key(JsonNode webhook) {
        return timeout(webhook).toSeconds() + "|"
                + webhook.path("clientConfig").path("caBundle").asText().trim();
    }

    /** The client for {@code webhook}, made at its first call. */
    HttpClient of(JsonNode webhook) throws GeneralSecurityException {
        String key = key(webhook);
        HttpClient client = clients.get(key);
        if (client != null) {
            return client;
        }
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(timeout(webhook));
        String caBundle = webhook.path("clientConfig").path("caBundle").asText().trim();
        if (!caBundle.isEmpty()) {
            builder.sslContext(trusting(caBundle));
        }
        HttpClient made = builder.build();
        HttpClient raced = clients.putIfAbsent(key, made);
        if (raced != null) {
            made.shutdown();
            return raced;
        }
        return made;
    }

    /** Closes the clients no stored webhook names any more (its configuration was deleted or replaced). */
    void retain(Set<String> keys) {
        if (clients.size() <= keys.size() && keys.containsAll(clients.keySet())) {
            return;
        }
        clients.entrySet().removeIf(e -> {
            if (keys.contains(e.getKey())) {
                return false;
            }
            e.getValue().shutdown(); // not close(): a review may still be waiting on it
            return true;
        });
    }

    int size() {
        return clients.size();
    }

    /** TLS that trusts the certificates of a base64 PEM bundle, and nothing else (as the apiserver does). */
    private static SSLContext trusting(String caBundle) throws GeneralSecurityException {
        byte[] pem = Base64.getDecoder().decode(caBundle);
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        try {
            trust.load(null, null);
        } catch (java.io.IOException e) {
            throw new GeneralSecurityException("an empty key store: " + e.getMessage(), e);
        }
        int i = 0;
        for (var certificate :
                CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem))) {
            trust.setCertificateEntry("ca-" + i++, (X509Certificate) certificate);
        }
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }
}
