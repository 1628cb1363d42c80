package io.lahar.console.api;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * The actions a console user takes on a job, passed to the streams-app's REST API with the
 * console's token: AbortJob, ResumeJob, RestartJob and delete. 403 when the console is read-only.
 * The browser must send {@value #HEADER}: a page of another site cannot set it without a CORS
 * preflight the console never grants, so it cannot make a visitor's browser act.
 */
final class JobActions {

    static final String HEADER = "X-Lahar-Console";
    /** The actions the console offers (the streams-app accepts more; the CLI sends those). */
    static final Set<String> ACTIONS = Set.of("AbortJob", "ResumeJob", "RestartJob");

    private static final Logger LOG = Logger.getLogger(JobActions.class);

    private JobActions() {}

    static Response act(StreamsApi api, String namespace, String name, String action, String marker) {
        if (!ACTIONS.contains(action)) {
            return Response.status(422)
                    .entity(Map.of("error", "'" + action + "' is not one of " + ACTIONS))
                    .build();
        }
        return forward(api, marker, namespace + "/" + name + " " + action, a -> a.act(namespace, name, action));
    }

    static Response delete(StreamsApi api, String namespace, String name, String marker) {
        return forward(api, marker, namespace + "/" + name + " delete", a -> a.delete(namespace, name));
    }

    private interface Call {
        StreamsApi.Answer send(StreamsApi api) throws IOException, InterruptedException;
    }

    private static Response forward(StreamsApi api, String marker, String what, Call call) {
        if (marker == null) {
            return Response.status(403)
                    .entity(Map.of("error", "actions need the " + HEADER + " header"))
                    .build();
        }
        if (api.readOnly()) {
            return Response.status(403)
                    .entity(Map.of("error", "the console is read-only: no API token is configured"))
                    .build();
        }
        try {
            StreamsApi.Answer answer = call.send(api);
            LOG.infof("%s: the streams-app answered %d", what, answer.status());
            return Response.status(answer.status())
                    .entity(answer.body())
                    .type(MediaType.APPLICATION_JSON)
                    .build();
        } catch (IOException e) {
            return Response.status(502)
                    .entity(Map.of("error", "the streams-app at " + api.base() + " did not answer: " + e))
                    .build();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Response.status(503).entity(Map.of("error", "interrupted")).build();
        }
    }
}
