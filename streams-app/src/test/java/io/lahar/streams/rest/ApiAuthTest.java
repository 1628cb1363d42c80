package io.lahar.streams.rest;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.core.Response;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Who may call the REST API: the token for writes always, for reads unless they are configured open. */
class ApiAuthTest {

    private static ApiAuth auth(boolean readOpen) {
        ApiAuth auth = new ApiAuth();
        auth.token = new ApiToken(Optional.of("t0ken"), Optional.empty());
        auth.readOpen = readOpen;
        return auth;
    }

    private static Integer status(Response response) {
        return response == null ? null : response.getStatus();
    }

    @Test
    void byDefaultReadsAndWritesNeedTheToken() {
        ApiAuth auth = auth(false);

        for (String method : new String[] {"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH"}) {
            assertThat(status(auth.check(method, null))).as(method).isEqualTo(401);
            assertThat(status(auth.check(method, "Bearer wrong"))).as(method).isEqualTo(401);
            assertThat(status(auth.check(method, "t0ken")))
                    .as(method + " without the scheme")
                    .isEqualTo(401);
            assertThat(auth.check(method, "Bearer t0ken")).as(method).isNull();
        }
    }

    @Test
    void readOpenLetsReadsThroughButNotWrites() {
        ApiAuth auth = auth(true);

        assertThat(auth.check("GET", null)).isNull();
        assertThat(auth.check("HEAD", null)).isNull();
        assertThat(status(auth.check("POST", null))).isEqualTo(401);
        assertThat(status(auth.check("DELETE", "Bearer wrong"))).isEqualTo(401);
        assertThat(auth.check("DELETE", "Bearer t0ken")).isNull();
    }

    @Test
    void theRefusalSaysWhatIsMissing() {
        Response refused = auth(false).check("POST", null);

        assertThat(refused.getHeaderString("WWW-Authenticate")).isEqualTo("Bearer realm=\"lahar\"");
        assertThat(((ApiError) refused.getEntity()).error()).startsWith("writes need 'Authorization: Bearer <token>'");
    }
}
