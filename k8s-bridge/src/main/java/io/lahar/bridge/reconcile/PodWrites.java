package io.lahar.bridge.reconcile;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.DeleteOptions;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.OperationInfo;
import io.fabric8.kubernetes.client.dsl.internal.OperationSupport;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.lahar.bridge.mapping.Pods;
import io.lahar.core.job.plugins.PodLabels;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The writes every pod costs — its create, its binding, its deletion — sent through the client's
 * own HTTP client (its master URL, TLS, token and retries of connection failures, 429 and 5xx all
 * apply) instead of its resource DSL, which built each request through several copies of its
 * operation context and a URL joined by regular expressions, and read every answer into a full
 * model (the created pod, the binding's status, the deleted pod) the bridge did not use. Here a
 * create's answer is read only as far as its metadata (the UID, resource version and job version
 * {@link CreatedPods} keeps), the others not at all.
 * <p>
 * A refusal or a failure is the very exception the DSL throws (made by fabric8's own
 * {@link OperationSupport}: the code, the Status of the body, the message), so {@link Retry} and
 * every caller treat it as before; a delete of a pod already gone (404) answers false, as the DSL
 * answered an empty list.
 */
public final class PodWrites {

    private static final String JSON = "application/json";
    private static final JsonFactory JSON_FACTORY = new JsonFactory();

    private final HttpClient http;
    private final KubernetesSerialization serialization;
    /** The master URL's namespaces of the core API, up to the slash before a namespace. */
    private final String namespaces;

    private final long timeoutMillis;
    /** The body of every delete, as the DSL sends it with no grace period or propagation set. */
    private final String deleteOptions;

    public PodWrites(KubernetesClient client) {
        this.http = client.getHttpClient();
        this.serialization = client.getKubernetesSerialization();
        String master = client.getConfiguration().getMasterUrl();
        while (master.endsWith("/")) {
            master = master.substring(0, master.length() - 1);
        }
        this.namespaces = master + "/api/v1/namespaces/";
        this.timeoutMillis = client.getConfiguration().getRequestTimeout();
        this.deleteOptions = serialization.asJson(new DeleteOptions());
    }

    /** Creates {@code pod} in {@code namespace}; what the cluster made of it, as far as the bridge keeps it. */
    public CreatedPods.Created create(String namespace, Pod pod) {
        HttpRequest request = request(namespaces + namespace + "/pods")
                .post(JSON, serialization.asJson(pod))
                .build();
        HttpResponse<byte[]> response = send(request, null);
        try {
            return created(response.body());
        } catch (IOException | RuntimeException e) {
            throw OperationSupport.requestException(request, e).copyAsCause();
        }
    }

    /** Binds a pod as {@code binding} says, through the namespace's Binding collection. */
    public void bind(String namespace, Binding binding) {
        HttpRequest request = request(namespaces + namespace + "/bindings")
                .post(JSON, serialization.asJson(binding))
                .build();
        send(request, null);
    }

    /** Deletes the pod {@code namespace/name}: true if the cluster deleted it, false if it was not there. */
    public boolean delete(String namespace, String name) {
        HttpRequest request = request(namespaces + namespace + "/pods/" + name)
                .delete(JSON, deleteOptions)
                .build();
        try {
            HttpResponse<byte[]> response = send(request, new PodDelete("delete", name, namespace));
            return !blank(response.body());
        } catch (KubernetesClientException e) {
            if (Retry.isNotFound(e)) {
                return false;
            }
            throw e;
        }
    }

    private HttpRequest.Builder request(String uri) {
        return http.newHttpRequestBuilder().uri(uri).timeout(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    /**
     * The answer if it is a success; otherwise the exception the DSL throws for the same answer or
     * failure, which names the operation for a delete ({@code operation}) and not for a create (null).
     */
    private HttpResponse<byte[]> send(HttpRequest request, OperationInfo operation) {
        HttpResponse<byte[]> response;
        try {
            response = http.sendAsync(request, byte[].class).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            InterruptedIOException interrupted = new InterruptedIOException();
            interrupted.initCause(e);
            throw laundered(operation, interrupted);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            if (cause instanceof IOException) {
                throw laundered(operation, new IOException(cause.getMessage(), cause));
            }
            if (cause instanceof KubernetesClientException k) {
                throw k.copyAsCause();
            }
            throw new KubernetesClientException(cause.getMessage(), cause);
        }
        if (!response.isSuccessful()) {
            throw OperationSupport.requestFailure(request, OperationSupport.createStatus(response, serialization))
                    .copyAsCause();
        }
        return response;
    }

    private static RuntimeException laundered(OperationInfo operation, IOException e) {
        return operation == null
                ? KubernetesClientException.launderThrowable(e)
                : KubernetesClientException.launderThrowable(operation, e);
    }

    /** The UID, resource version and job version of the pod in a create's answer; the rest is not read. */
    static CreatedPods.Created created(byte[] body) throws IOException {
        String uid = null;
        String resourceVersion = null;
        String annotation = null;
        String label = null;
        try (JsonParser parser = JSON_FACTORY.createParser(body)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("the answer to a pod's create is not a JSON object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                if (parser.nextToken() != JsonToken.START_OBJECT || !"metadata".equals(field)) {
                    parser.skipChildren();
                    continue;
                }
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String key = parser.currentName();
                    JsonToken value = parser.nextToken();
                    switch (key) {
                        case "uid" -> uid = parser.getValueAsString();
                        case "resourceVersion" -> resourceVersion = parser.getValueAsString();
                        case "annotations" -> annotation = entry(parser, value, PodLabels.JOB_VERSION);
                        case "labels" -> label = entry(parser, value, PodLabels.JOB_VERSION);
                        default -> parser.skipChildren();
                    }
                }
                // The metadata is all the bridge keeps: the spec and status are left unread.
                break;
            }
        }
        return CreatedPods.Created.of(uid, Pods.jobVersion(annotation, label), resourceVersion);
    }

    /** The string value of {@code wanted} in the object the parser is at (null if none), the object read to its end. */
    private static String entry(JsonParser parser, JsonToken at, String wanted) throws IOException {
        if (at != JsonToken.START_OBJECT) {
            parser.skipChildren();
            return null;
        }
        String found = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String key = parser.currentName();
            parser.nextToken();
            if (wanted.equals(key)) {
                found = parser.getValueAsString();
            } else {
                parser.skipChildren();
            }
        }
        return found;
    }

    private static boolean blank(byte[] body) {
        if (body == null) {
            return true;
        }
        for (byte b : body) {
            if (!Character.isWhitespace(b)) {
                return false;
            }
        }
        return true;
    }

    /** A pod's delete as the DSL names it in the message of a failure. */
    private record PodDelete(String type, String name, String namespace) implements OperationInfo {

        @Override
        public String getKind() {
            return "Pod";
        }

        @Override
        public String getName() {
            return name;
        }

        @Override
        public String getNamespace() {
            return namespace;
        }

        @Override
        public String getOperationType() {
            return type;
        }

        @Override
        public OperationInfo forOperationType(String other) {
            return new PodDelete(other, name, namespace);
        }

        @Override
        public String getPlural() {
            return "pods";
        }

        @Override
        public String getVersion() {
            return "v1";
        }
    }
}
