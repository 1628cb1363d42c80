package io.lahar.testkit;

import java.net.Socket;
import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * An HTTP client for a test's own processes on 127.0.0.1 that serve TLS with a certificate made at
 * their start (the kube-emulator): it accepts any certificate and name, as the kubeconfig such a
 * process writes says to. Never for anything but loopback services a test started itself.
 */
public final class LoopbackTls {

    private LoopbackTls() {}

    public static HttpClient.Builder client() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new AnyCertificate()}, null);
            return HttpClient.newBuilder().sslContext(context);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("no TLS context", e);
        }
    }

    /** Extended, so the JDK adds no host-name check of its own. */
    private static final class AnyCertificate extends X509ExtendedTrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {}

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {}

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
