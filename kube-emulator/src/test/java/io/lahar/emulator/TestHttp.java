package io.lahar.emulator;

import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/** A client of the emulator under test, which serves TLS with a certificate made at its start. */
final class TestHttp {

    private TestHttp() {}

    static HttpClient.Builder client() {
        // Extended, so the JDK checks no host name: the kubeconfig skips verification as well.
        X509ExtendedTrustManager any = new X509ExtendedTrustManager() {
            public void checkClientTrusted(X509Certificate[] c, String a, java.net.Socket s) {}

            public void checkServerTrusted(X509Certificate[] c, String a, java.net.Socket s) {}

            public void checkClientTrusted(X509Certificate[] c, String a, javax.net.ssl.SSLEngine e) {}

            public void checkServerTrusted(X509Certificate[] c, String a, javax.net.ssl.SSLEngine e) {}

            public void checkClientTrusted(X509Certificate[] c, String a) {}

            public void checkServerTrusted(X509Certificate[] c, String a) {}

            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        try {
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, new TrustManager[] {any}, null);
            return HttpClient.newBuilder().sslContext(tls);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
