package io.lahar.emulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The front of the emulated API: it answers what fabric8's CRUD store lacks and hands everything
 * else to the store.
 * <ul>
 *   <li>discovery ({@code /api}, {@code /apis}, {@code /api/v1}, {@code /apis/g[/v]}), {@code /version}
 *       and the health endpoints, which kubectl reads before anything else;</li>
 *   <li>{@code pods/binding}, honoured as the apiserver does ({@link PodBinding});</li>
 *   <li>merge, strategic merge and JSON patches and server-side apply ({@link Patches}), which
 *       kubectl label/annotate/patch/apply send;</li>
 *   <li>mutating, then validating, admission webhooks ({@link AdmissionWebhooks}) on every create,
 *       update, patch and delete of an object, the object stored as the mutating ones patch it;</li>
 *   <li>{@code dryRun=All}: the write is checked and answered, not stored;</li>
 *   <li>a JSON content type on every JSON answer (the store sets none, and kubectl will not decode
 *       a body without one);</li>
 *   <li>server-side tables for {@code kubectl get} ({@link TableView});</li>
 *   <li>authentication: every request but the health checks carries the kubeconfig's bearer
 *       token ({@link BearerToken}), else 401 as the apiserver answers an anonymous client (the
 *       store holds secrets, an MPI job's SSH private key among them).</li>
 * </ul>
 */
final class ClusterDispatcher extends Dispatcher {

    private static final Pattern API_GROUP = Pattern.compile("^/apis/([^/]+)$");
    private static final Pattern API_GROUP_VERSION = Pattern.compile("^/apis/([^/]+)/([^/]+)$");
    private static final Pattern NAMESPACE = Pattern.compile("/namespaces/([^/]+)/");
    /** fabric8's web server keeps every request for takeRequest(); we never take them, so we drop them. */
    private static final long TRIM_REQUEST_LOG_EVERY = 256;

    private final ApiDiscovery discovery;
    private final CrudStore store;
    private final PodBinding binding;
    private final TableView tables;
    private final OpenApiV3 openApi;
    private final Supplier<String> serverAddress;
    private final Runnable trimRequestLog;
    private final BooleanSupplier ready;
    private final AtomicLong requests = new AtomicLong();
    private final BearerToken token;
    private final AdmissionWebhooks mutating;
    private final AdmissionWebhooks validating;
    private final Patches patches;

    ClusterDispatcher(
            ApiDiscovery discovery,
            CrudStore store,
            Clock clock,
            Supplier<String> serverAddress,
            Runnable trimRequestLog,
            BooleanSupplier ready,
            BearerToken token) {
        this.token = token;
        this.discovery = discovery;
        this.store = store;
        this.binding = new PodBinding(store, clock);
        this.tables = new TableView(discovery, clock);
        this.openApi = new OpenApiV3(discovery);
        this.mutating = new AdmissionWebhooks(store, AdmissionWebhooks.Kind.MUTATING);
        this.validating = new AdmissionWebhooks(store, AdmissionWebhooks.Kind.VALIDATING);
        this.patches = new Patches(store, this::admitted);
        this.serverAddress = serverAddress;
        this.trimRequestLog = trimRequestLog;
        this.ready = ready;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        if (requests.incrementAndGet() % TRIM_REQUEST_LOG_EVERY == 0) {
            trimRequestLog.run();
        }
        MockResponse response;
        try {
            response = authenticated(request)
                    ? route(request)
                    : ApiStatus.failure(401, "Unauthorized", "Unauthorized", null, null, null);
            if (response == null) {
                // The store answers only GET, POST, PUT, PATCH and DELETE.
                response = ApiStatus.failure(
                        405, "MethodNotAllowed", request.getMethod() + " is not supported", null, null, null);
            }
        } catch (RuntimeException e) {
            // A request the store cannot digest must be answered, not crash the event loop.
            response = ApiStatus.failure(
                    500,
                    "InternalError",
                    "the emulated API failed on " + request.getMethod() + " " + request.getPath() + ": " + e,
                    null,
                    null,
                    null);
        }
        if (response.getWebSocketListener() == null
                && response.header("Content-Type") == null
                && response.getBody() != null
                && response.getBody().size() > 0) {
            response.setHeader("Content-Type", "application/json");
        }
        return response;
    }

    /** Health checks are anonymous, as a kube-apiserver's are by default; everything else wants the token. */
    private boolean authenticated(RecordedRequest request) {
        return switch (withoutQuery(request.getPath())) {
            case "/healthz", "/livez", "/readyz" -> true;
            default -> token.admits(request.getHeader("Authorization"));
        };
    }

    private MockResponse route(RecordedRequest request) {
        String fullPath = request.getPath();
        String path = withoutQuery(fullPath);
        switch (request.method()) {
            case GET -> {
                Optional<MockResponse> fixed = serveFixed(path);
                if (fixed.isPresent()) {
                    return fixed.get();
                }
                MockResponse response = ListKinds.named(selecting(request, path, fullPath), discovery.resourceAt(path));
                String accept = request.getHeader("Accept");
                if (response.code() == 200
                        && accept != null
                        && accept.contains("as=Table")
                        && !fullPath.contains("watch=true")) {
                    return tables.render(path, CrudStore.bodyOf(response), fullPath.contains("includeObject=Object"))
                            .map(table -> ApiStatus.json(200, table))
                            .orElse(response);
                }
                return response;
            }
            case POST -> {
                if (PodBinding.matches(path)) {
                    return binding.bind(path, request.getUtf8Body());
                }
                // Reading the body consumes it: the store is handed a request made again from it.
                return written(
                        HttpMethod.POST,
                        path,
                        fullPath,
                        "CREATE",
                        request.getHeader("Content-Type"),
                        request.getUtf8Body(),
                        201);
            }
            case PUT -> {
                return written(
                        HttpMethod.PUT,
                        path,
                        fullPath,
                        "UPDATE",
                        request.getHeader("Content-Type"),
                        request.getUtf8Body(),
                        200);
            }
            case PATCH -> {
                String contentType = request.getHeader("Content-Type");
                if (Patches.handles(contentType)) {
                    return patches.patch(path, contentType, request.getUtf8Body(), dryRun(fullPath));
                }
                return store.dispatch(request);
            }
            case DELETE -> {
                return deleting(request, path, fullPath);
            }
            default -> {
                return store.dispatch(request);
            }
        }
    }

    /**
     * A delete; for a collection with selectors ({@code deletecollection}), only what they select is
     * deleted. The store alone would drop set-based and field requirements and delete too much.
     */
    private MockResponse deleting(RecordedRequest request, String path, String fullPath) {
        int q = fullPath.indexOf('?');
        String query = q < 0 ? null : fullPath.substring(q + 1);
        Optional<Selectors> selectors;
        try {
            selectors = Selectors.fromQuery(query);
        } catch (IllegalArgumentException e) {
            return ApiStatus.badRequest("unable to parse requirement: " + e.getMessage());
        }
        boolean dryRun = dryRun(fullPath);
        if (selectors.isEmpty() && (dryRun || reviewed(path, "DELETE"))) {
            selectors = Optional.of(
                    Selectors.ofLabelSelector(Serialization.jsonMapper().createObjectNode()));
        }
        if (selectors.isEmpty()) {
            return store.dispatch(request);
        }
        Optional<IndexedCrudDispatcher.Selection> collection = store.select(path, selectors.get()::matches);
        if (collection.isEmpty()) {
            // A single object: selectors do not apply, the webhooks review its delete.
            MockResponse listed = store.dispatch(HttpMethod.GET, path, null, null);
            Optional<MockResponse> refused = listed.code() == 200
                    ? admitted(path, "DELETE", null, CrudStore.parse(CrudStore.bodyOf(listed)), dryRun)
                            .refusal()
                    : Optional.empty();
            if (refused.isPresent() || (dryRun && listed.code() == 200)) {
                return refused.orElse(listed);
            }
            return store.dispatch(request);
        }
        List<String> deleted = new ArrayList<>();
        String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
        int lastSlash = trimmed.lastIndexOf('/');
        String prefix = trimmed.substring(0, lastSlash);
        String plural = trimmed.substring(lastSlash + 1);
        for (IndexedCrudDispatcher.Selection.Selected selected :
                collection.get().objects()) {
            JsonNode item = selected.tree();
            String namespace = item.path("metadata").path("namespace").asText("");
            String itemPath = (!namespace.isEmpty() && !prefix.contains("/namespaces/")
                            ? prefix + "/namespaces/" + namespace + "/" + plural
                            : trimmed)
                    + "/" + item.path("metadata").path("name").asText();
            // As the apiserver's deletecollection: each item is reviewed, and a refusal ends the request.
            Optional<MockResponse> refused =
                    admitted(itemPath, "DELETE", null, item, dryRun).refusal();
            if (refused.isPresent()) {
                return refused.get();
            }
            if (dryRun
                    || store.dispatch(HttpMethod.DELETE, itemPath, null, null).code() == 200) {
                deleted.add(selected.json());
            }
        }
        return store.list(deleted, collection.get().version());
    }

    /**
     * A GET through the store, with label and field selectors applied here rather than by the store
     * ({@link Selectors} says why): to a list's items, or to a watch's events ({@link SelectingWatch}).
     */
    private MockResponse selecting(RecordedRequest request, String path, String fullPath) {
        int q = fullPath.indexOf('?');
        String query = q < 0 ? null : fullPath.substring(q + 1);
        Optional<Selectors> selectors;
        try {
            selectors = Selectors.fromQuery(query);
        } catch (IllegalArgumentException e) {
            return ApiStatus.badRequest("unable to parse requirement: " + e.getMessage());
        }
        if (selectors.isEmpty()) {
            return store.dispatch(request);
        }
        String unselected = path + Selectors.withoutSelectors(query);
        Selectors selected = selectors.get();
        Optional<MockResponse> listed =
                store.select(unselected, selected::matches).map(s -> store.list(s.json(), s.version()));
        if (listed.isPresent()) {
            return listed.get();
        }
        // A watch (its events are selected as they come), or a single object (selectors apply to collections).
        MockResponse response = store.dispatch(new RecordedRequest(
                request.getHttpVersion(), request.method(), unselected, request.getHeaders(), request.getBody()));
        if (response.getWebSocketListener() instanceof StoreWatch watch) {
            return response.withWebSocketUpgrade(watch.selecting(selected));
        }
        return response;
    }

    private Optional<MockResponse> serveFixed(String path) {
        switch (path) {
            case "/", "" -> {
                return Optional.of(ApiStatus.json(200, rootPaths()));
            }
            case "/version", "/version/" -> {
                return Optional.of(ApiStatus.json(200, discovery.version()));
            }
            case "/healthz", "/livez" -> {
                return Optional.of(plain(200, "ok"));
            }
            case "/readyz" -> {
                // As kube-apiserver's: 500 until start-up is done (here: the nodes are registered
                // and the kubeconfig is written), so a script or a supervisor can wait for it.
                return Optional.of(
                        ready.getAsBoolean() ? plain(200, "ok") : plain(500, "[-]lahar-start-up not finished"));
            }
            case "/api", "/api/" -> {
                return Optional.of(ApiStatus.json(200, discovery.apiVersions(serverAddress.get())));
            }
            case "/apis", "/apis/" -> {
                return Optional.of(ApiStatus.json(200, discovery.apiGroupList()));
            }
            case "/api/v1", "/api/v1/" -> {
                return discovery.resourceList("", "v1").map(list -> ApiStatus.json(200, list));
            }
            case "/openapi/v2" -> {
                // Protobuf only in client-go: kubectl validates through the v3 documents instead.
                return Optional.of(notFound());
            }
            default -> {
                if (OpenApiV3.serves(path)) {
                    return Optional.of(openApi.document(path)
                            .map(doc -> ApiStatus.json(200, doc))
                            .orElseGet(ClusterDispatcher::notFound));
                }
                if (!path.startsWith("/apis/")) {
                    return Optional.empty(); // neither a group's discovery nor a group version's
                }
                String trimmed = path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
                Matcher group = API_GROUP.matcher(trimmed);
                if (group.matches()) {
                    return Optional.of(discovery
                            .apiGroup(group.group(1))
                            .map(doc -> ApiStatus.json(200, doc))
                            .orElseGet(ClusterDispatcher::notFound));
                }
                Matcher groupVersion = API_GROUP_VERSION.matcher(trimmed);
                if (groupVersion.matches()) {
                    return Optional.of(discovery
                            .resourceList(groupVersion.group(1), groupVersion.group(2))
                            .map(doc -> ApiStatus.json(200, doc))
                            .orElseGet(ClusterDispatcher::notFound));
                }
                return Optional.empty();
            }
        }
    }

    /**
     * A create or update: refused when a webhook refuses it; answered with the object as it would be
     * stored, and nothing stored, on a dry run; else stored as the mutating webhooks left it (the
     * body as sent when they changed nothing).
     */
    private MockResponse written(
            HttpMethod method,
            String path,
            String fullPath,
            String operation,
            String contentType,
            String body,
            int code) {
        boolean dryRun = dryRun(fullPath);
        if (!dryRun && !reviewed(path, operation)) {
            return store.dispatch(method, fullPath, contentType, body);
        }
        JsonNode object;
        try {
            object = CrudStore.parse(body);
        } catch (IllegalArgumentException e) {
            // the store answers what it makes of a body that is not JSON
            return store.dispatch(method, fullPath, contentType, body);
        }
        JsonNode old = operation.equals("UPDATE") ? store.get(path).orElse(null) : null;
        AdmissionWebhooks.Admitted admitted = admitted(path, operation, object, old, dryRun);
        if (admitted.refusal().isPresent()) {
            return admitted.refusal().get();
        }
        if (dryRun) {
            return ApiStatus.json(code, admitted.object().toString());
        }
        if (admitted.object().equals(object)) {
            return store.dispatch(method, fullPath, contentType, body);
        }
        return store.dispatch(
                method, fullPath, "application/json", admitted.object().toString());
    }

    /**
     * Admission of a write of the object at {@code path} (not of a subresource: a status write is not
     * the object's create or update), as the apiserver's: the mutating webhooks patch the object, the
     * validating ones review it as patched. {@code object} is null on DELETE, {@code old} on CREATE.
     */
    private AdmissionWebhooks.Admitted admitted(
            String path, String operation, JsonNode object, JsonNode old, boolean dryRun) {
        Optional<ApiResource> resource = discovery.resourceAt(path);
        boolean mutated = resource.isPresent() && mutating.reviews(resource.get(), operation);
        boolean validated = resource.isPresent() && validating.reviews(resource.get(), operation);
        if (!mutated && !validated) {
            return AdmissionWebhooks.Admitted.as(object);
        }
        if (object != null
                && resource.get().namespaced()
                && object.path("metadata").isObject()) {
            Matcher namespace = NAMESPACE.matcher(path);
            if (namespace.find() && !object.path("metadata").hasNonNull("namespace")) {
                // As the apiserver: the object of a namespaced URL is in that namespace.
                object = object.deepCopy();
                ((ObjectNode) object.get("metadata")).put("namespace", namespace.group(1));
            }
        }
        AdmissionWebhooks.Write write = new AdmissionWebhooks.Write(resource.get(), operation, object, old, dryRun);
        AdmissionWebhooks.Admitted admitted = mutated ? mutating.mutate(write) : AdmissionWebhooks.Admitted.as(object);
        if (admitted.refusal().isPresent() || !validated) {
            return admitted;
        }
        return validating
                .review(write.with(admitted.object()))
                .map(AdmissionWebhooks.Admitted::refused)
                .orElse(admitted);
    }

    /** Whether a webhook's rules name {@code operation} on the resource at {@code path}. */
    private boolean reviewed(String path, String operation) {
        return discovery
                .resourceAt(path)
                .map(r -> mutating.reviews(r, operation) || validating.reviews(r, operation))
                .orElse(false);
    }

    /** Whether the request asks for a dry run ({@code ?dryRun=All}, what kubectl's --dry-run=server sends). */
    static boolean dryRun(String fullPath) {
        int q = fullPath.indexOf('?');
        return q >= 0 && ("&" + fullPath.substring(q + 1) + "&").contains("&dryRun=All&");
    }

    private String rootPaths() {
        ObjectNode root = Serialization.jsonMapper().createObjectNode();
        var paths = root.putArray("paths");
        paths.add("/api").add("/api/v1").add("/apis");
        discovery.resources().stream()
                .filter(r -> !r.group().isEmpty())
                .map(ApiResource::basePath)
                .distinct()
                .forEach(paths::add);
        paths.add("/healthz").add("/livez").add("/readyz").add("/version");
        return root.toString();
    }

    private static MockResponse plain(int code, String body) {
        return new MockResponse()
                .setResponseCode(code)
                .setHeader("Content-Type", "text/plain")
                .setBody(body);
    }

    private static MockResponse notFound() {
        return ApiStatus.failure(404, "NotFound", "the server could not find the requested resource", null, null, null);
    }

    static String withoutQuery(String path) {
        int query = path.indexOf('?');
        return query < 0 ? path : path.substring(0, query);
    }
}
