package io.lahar.streams.rest;

import jakarta.inject.Inject;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Every call of the REST API carries {@code Authorization: Bearer <token>} ({@link ApiToken}),
 * else it is answered 401: writes always, reads too unless {@code lahar.api.read-open=true} (a
 * deployment whose job list anyone on the network may see). Health and metrics ({@code /q/...})
 * are not the API and stay open.
 */
@Provider
public class ApiAuth implements ContainerRequestFilter {

    private static final Set<String> READS = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS);

    @Inject
    ApiToken token;

    @ConfigProperty(name = "lahar.api.read-open", defaultValue = "false")
    boolean readOpen;

    @Override
    public void filter(ContainerRequestContext request) {
        Response denied = check(request.getMethod(), request.getHeaderString(HttpHeaders.AUTHORIZATION));
        if (denied != null) {
            request.abortWith(denied);
        }
    }

    /** Null when the call may go on, else the 401 that says what it lacks. */
    Response check(String method, String authorization) {
        boolean read = READS.contains(method);
        if ((read && readOpen) || token.admits(authorization)) {
            return null;
        }
        return Response.status(Response.Status.UNAUTHORIZED)
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"lahar\"")
                .type(MediaType.APPLICATION_JSON)
                .entity(ApiError.of((read ? "reads" : "writes") + " need 'Authorization: Bearer <token>': the token is"
                        + " lahar.api.token, else the content of lahar.api.token-file (bin/start: <data>/api-token)"))
                .build();
    }
}
