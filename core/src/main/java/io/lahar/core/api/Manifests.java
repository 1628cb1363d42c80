package io.lahar.core.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Reads Volcano manifests from YAML (one or many documents) or JSON, dispatching on
 * apiVersion/kind, and writes them back with a stable field order and nulls omitted.
 *
 * <p>YAML is read as YAML: anchors and aliases expanded ({@link YamlAliases}, bounded against
 * "billion laughs") and merge keys ({@code <<: *base}) merged; a document is at most
 * {@link #MAX_DOCUMENT_CODE_POINTS} characters. Unknown fields are dropped, as the Kubernetes API
 * server prunes them from structural CRDs, and reported as it reports them, as warnings
 * ({@link #readWithWarnings}); docs/decisions/041-yaml-and-unknown-fields.md says why.
 */
public final class Manifests {

    /** The most characters one document may have: the Kubernetes API server's request body limit (3 MiB). */
    public static final int MAX_DOCUMENT_CODE_POINTS = 3 * 1024 * 1024;

    /** SnakeYAML's own default, said here: at most this many aliases of a mapping or sequence per document. */
    static final int MAX_COLLECTION_ALIASES = 50;

    private static final ObjectMapper YAML = configure(YAMLMapper.builder(YamlAliases.factory(YAMLFactory.builder()
                    .loaderOptions(loaderOptions())
                    .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                    .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
                    .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
                    .disable(YAMLGenerator.Feature.SPLIT_LINES)
                    .stringQuotingChecker(new CautiousQuoting())
                    .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)))
            .build());

    private static LoaderOptions loaderOptions() {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(MAX_DOCUMENT_CODE_POINTS);
        options.setMaxAliasesForCollections(MAX_COLLECTION_ALIASES);
        return options;
    }

    private static final ObjectMapper JSON = configure(JsonMapper.builder().build());

    private Manifests() {}

    /**
     * Quotes, besides what Jackson quotes, every string another YAML reader could take for a
     * number or a boolean (hex, octal, exponents, sexagesimal, .inf, y/n), so a value written
     * as a string reads back as the same string anywhere.
     */
    private static final class CautiousQuoting
            extends com.fasterxml.jackson.dataformat.yaml.util.StringQuotingChecker.Default {
        private static final java.util.regex.Pattern NUMBERISH = java.util.regex.Pattern.compile(
                "[-+]?(0[xX][0-9a-fA-F_]+|0[oO]?[0-7_]+|[0-9][0-9_]*(\\.[0-9_]*)?([eE][-+]?[0-9]+)?"
                        + "|\\.[0-9_]+([eE][-+]?[0-9]+)?|\\.(inf|Inf|INF|nan|NaN|NAN)|[0-9][0-9_]*(:[0-5]?[0-9])+(\\.[0-9_]*)?)"
                        + "|[yYnN]|=|<<");

        @Override
        public boolean needToQuoteValue(String value) {
            return super.needToQuoteValue(value) || NUMBERISH.matcher(value).matches();
        }
    }

    private static ObjectMapper configure(ObjectMapper mapper) {
        return mapper.configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
                .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, true)
                .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, false)
                .setSerializationInclusion(JsonInclude.Include.NON_NULL);
    }

    /** The mapper used for YAML, for callers that need trees (e.g. patches). */
    public static ObjectMapper yamlMapper() {
        return YAML;
    }

    public static ObjectMapper jsonMapper() {
        return JSON;
    }

    /** Every manifest in the text: YAML documents separated by "---", a JSON object, or a List's items. */
    public static List<Manifest> readAll(String text) {
        List<Manifest> out = new ArrayList<>();
        for (JsonNode doc : readTrees(text)) {
            out.add(fromTree(doc));
        }
        return out;
    }

    /** A manifest as read, and the paths of the unknown fields reading it dropped (e.g. {@code spec.tasks[0].replica}). */
    public record Reading(Manifest manifest, List<String> unknownFields) {
        public Reading {
            unknownFields = List.copyOf(unknownFields);
        }

        /** The unknown fields as the Kubernetes API server words its warnings: {@code unknown field "spec.foo"}. */
        public List<String> warnings() {
            return unknownFields.stream()
                    .map(f -> "unknown field \"" + f + "\"")
                    .toList();
        }
    }

    /** Every manifest in the text, each with its warnings. */
    public static List<Reading> readAllWithWarnings(String text) {
        List<Reading> out = new ArrayList<>();
        for (JsonNode doc : readTrees(text)) {
            out.add(fromTreeWithWarnings(doc));
        }
        return out;
    }

    /** Exactly one manifest, with its warnings. */
    public static Reading readWithWarnings(String text) {
        List<Reading> all = readAllWithWarnings(text);
        if (all.size() != 1) {
            throw new ManifestException("expected one manifest, found " + all.size());
        }
        return all.get(0);
    }

    /** Exactly one manifest, or an exception naming how many documents there were. */
    public static Manifest read(String text) {
        List<Manifest> all = readAll(text);
        if (all.size() != 1) {
            throw new ManifestException("expected one manifest, found " + all.size());
        }
        return all.get(0);
    }

    public static <T extends Manifest> T read(String text, Class<T> type) {
        Manifest m = read(text);
        if (!type.isInstance(m)) {
            throw new ManifestException("expected a " + type.getSimpleName() + ", found a " + m.kind());
        }
        return type.cast(m);
    }

    /**
     * The documents as JSON trees; empty documents are skipped and a {@code kind: List} is flattened.
     * YAML's aliases are expanded and its merge keys merged.
     */
    public static List<JsonNode> readTrees(String text) {
        List<JsonNode> docs = new ArrayList<>();
        String trimmed = text.stripLeading();
        try {
            if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
                if (text.length() > MAX_DOCUMENT_CODE_POINTS) {
                    throw new ManifestException("the document is " + text.length() + " characters, over the limit of "
                            + MAX_DOCUMENT_CODE_POINTS);
                }
                JsonNode root = JSON.readTree(text);
                if (root.isArray()) {
                    root.forEach(docs::add);
                } else {
                    docs.add(root);
                }
            } else {
                try (MappingIterator<JsonNode> it =
                        YAML.readerFor(JsonNode.class).readValues(text)) {
                    while (it.hasNextValue()) {
                        JsonNode doc = it.nextValue();
                        if (doc != null
                                && !doc.isNull()
                                && !doc.isMissingNode()
                                && !(doc.isTextual() && doc.asText().isBlank())) {
                            docs.add(mergeKeys(doc));
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new ManifestException("cannot parse: " + firstLine(e.getMessage()));
        }
        List<JsonNode> flat = new ArrayList<>();
        for (JsonNode doc : docs) {
            if (doc.path("kind").asText().equals("List") && doc.path("items").isArray()) {
                doc.path("items").forEach(flat::add);
            } else {
                flat.add(doc);
            }
        }
        return flat;
    }

    private static final String MERGE_KEY = "<<";

    /**
     * YAML's merge keys, as Kubernetes' YAML reader applies them: a mapping's {@code <<} (a
     * mapping, or a list of them, usually aliases) gives the keys the mapping does not have
     * itself, the first mapping of a list winning over the later ones.
     */
    static JsonNode mergeKeys(JsonNode node) {
        if (node instanceof ObjectNode object) {
            JsonNode merge = object.remove(MERGE_KEY);
            object.properties().forEach(e -> e.setValue(mergeKeys(e.getValue())));
            if (merge != null) {
                List<JsonNode> sources = new ArrayList<>();
                if (merge.isArray()) {
                    merge.forEach(sources::add);
                } else {
                    sources.add(merge);
                }
                for (JsonNode source : sources) {
                    if (!source.isObject()) {
                        throw new ManifestException("<<: a merge key takes a mapping or a list of mappings, found "
                                + source.getNodeType().name().toLowerCase());
                    }
                    mergeKeys(source).properties().forEach(e -> {
                        if (!object.has(e.getKey())) {
                            object.set(e.getKey(), e.getValue().deepCopy());
                        }
                    });
                }
            }
        } else if (node instanceof com.fasterxml.jackson.databind.node.ArrayNode array) {
            for (int i = 0; i < array.size(); i++) {
                array.set(i, mergeKeys(array.get(i)));
            }
        }
        return node;
    }

    /** Dispatches one document on its apiVersion and kind. */
    public static Manifest fromTree(JsonNode doc) {
        return fromTreeWithWarnings(doc).manifest();
    }

    /** As {@link #fromTree}, with a warning for each field the manifest's kind does not have (it is dropped). */
    public static Reading fromTreeWithWarnings(JsonNode doc) {
        if (!doc.isObject()) {
            throw new ManifestException("a manifest must be a mapping, found "
                    + doc.getNodeType().name().toLowerCase());
        }
        String apiVersion = doc.path("apiVersion").asText("");
        String kind = doc.path("kind").asText("");
        if (kind.isEmpty()) {
            throw new ManifestException("kind: required", true);
        }
        Class<? extends Manifest> type = typeOf(apiVersion, kind);
        if (type == null) {
            throw new ManifestException(
                    "unknown kind \"" + kind + "\" of apiVersion \"" + apiVersion
                            + "\" (known: Job and CronJob batch.volcano.sh/v1alpha1, JobTemplate and JobFlow flow.volcano.sh/v1alpha1,"
                            + " Queue and PodGroup scheduling.volcano.sh/v1beta1, PriorityClass scheduling.k8s.io/v1)",
                    true);
        }
        UnknownFields unknown = new UnknownFields();
        try {
            Manifest m = JSON.readerFor(type).withHandler(unknown).readValue(doc);
            // Sorted: databind meets them in the order it buffers a record's properties, not the document's.
            return new Reading(m, unknown.fields.stream().sorted().toList());
        } catch (JsonMappingException e) {
            throw new ManifestException(describe(kind, doc, e));
        } catch (JsonProcessingException e) {
            throw new ManifestException("cannot read " + kind + ": " + firstLine(e.getOriginalMessage()));
        } catch (IOException e) {
            throw new ManifestException("cannot read " + kind + ": " + firstLine(e.getMessage()));
        }
    }

    /**
     * Collects the paths of unknown fields instead of failing on them: the Kubernetes API server's
     * default field validation (Warn) drops them and says so. Fields under a pod template or a
     * patch are kept as written (Kubernetes checks those when the pods are made).
     */
    private static final class UnknownFields
            extends com.fasterxml.jackson.databind.deser.DeserializationProblemHandler {
        final List<String> fields = new ArrayList<>();

        @Override
        public boolean handleUnknownProperty(
                com.fasterxml.jackson.databind.DeserializationContext ctxt,
                com.fasterxml.jackson.core.JsonParser p,
                com.fasterxml.jackson.databind.JsonDeserializer<?> deserializer,
                Object beanOrClass,
                String propertyName)
                throws IOException {
            // At a mapping or a list, the parser is already inside the unknown field's value.
            var holder = p.currentToken() == com.fasterxml.jackson.core.JsonToken.START_OBJECT
                            || p.currentToken() == com.fasterxml.jackson.core.JsonToken.START_ARRAY
                    ? p.getParsingContext().getParent()
                    : p.getParsingContext();
            fields.add(path(holder, propertyName));
            p.skipChildren();
            return true;
        }

        private static String path(com.fasterxml.jackson.core.JsonStreamContext ctx, String field) {
            java.util.Deque<String> parts = new java.util.ArrayDeque<>();
            // {@code ctx} is the mapping holding the unknown field: its parents name the path to it.
            for (var c = ctx.getParent(); c != null && !c.inRoot(); c = c.getParent()) {
                if (c.inArray()) {
                    parts.addFirst("[" + c.getCurrentIndex() + "]");
                } else if (c.getCurrentName() != null) {
                    parts.addFirst("." + c.getCurrentName());
                }
            }
            parts.addLast("." + field);
            return String.join("", parts).substring(1);
        }
    }

    static Class<? extends Manifest> typeOf(String apiVersion, String kind) {
        String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
        return switch (kind) {
            case "Job" -> group.equals("batch.volcano.sh") ? Job.class : null;
            case "CronJob" -> group.equals("batch.volcano.sh") ? CronJob.class : null;
            case "JobTemplate" -> group.equals("flow.volcano.sh") ? JobTemplate.class : null;
            case "JobFlow" -> group.equals("flow.volcano.sh") ? JobFlow.class : null;
            case "Queue" -> group.equals("scheduling.volcano.sh") ? Queue.class : null;
            case "PodGroup" -> group.equals("scheduling.volcano.sh") ? PodGroup.class : null;
            case "PriorityClass" -> group.equals("scheduling.k8s.io") ? PriorityClass.class : null;
            default -> null;
        };
    }

    private static String describe(String kind, JsonNode doc, JsonMappingException e) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                if (!path.isEmpty()) {
                    path.append('.');
                }
                path.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        String name = doc.path("metadata").path("name").asText("");
        String what = kind + (name.isEmpty() ? "" : " \"" + name + "\"");
        String reason = firstLine(e.getOriginalMessage());
        if (reason.startsWith("Cannot deserialize value of type `java.lang.Integer`")
                || reason.startsWith("Cannot deserialize value of type `int`")) {
            reason = "must be an integer";
        } else if (reason.startsWith("Cannot deserialize value of type `java.lang.Boolean`")) {
            reason = "must be a boolean";
        } else if (reason.contains("from Array value")) {
            reason = "must not be a list";
        } else if (reason.contains("from Object value")) {
            reason = "must not be a mapping";
        } else if (reason.contains("`java.util.ArrayList`") || reason.contains("`java.util.List")) {
            reason = "must be a list";
        } else if (reason.contains("ObjectNode")
                || reason.contains("LinkedHashMap")
                || reason.contains("`java.util.Map")) {
            reason = "must be a mapping";
        }
        return "cannot read " + what + ": " + (path.isEmpty() ? "" : path + ": ") + reason;
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unknown error";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** One manifest as YAML (no leading "---"). */
    public static String toYaml(Object manifest) {
        try {
            return YAML.writeValueAsString(manifest);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write YAML", e);
        }
    }

    /** Several manifests as one multi-document YAML stream. */
    public static String toYaml(List<? extends Manifest> manifests) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < manifests.size(); i++) {
            if (i > 0) {
                out.append("---\n");
            }
            out.append(toYaml(manifests.get(i)));
        }
        return out.toString();
    }

    public static String toJson(Object manifest) {
        try {
            return JSON.writeValueAsString(manifest);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON", e);
        }
    }

    /** The manifest as a JSON tree (for comparisons and patches). */
    public static ObjectNode toTree(Object manifest) {
        return JSON.valueToTree(manifest);
    }

    public static <T> T convert(JsonNode tree, Class<T> type) {
        try {
            return JSON.treeToValue(tree, type);
        } catch (JsonProcessingException e) {
            throw new ManifestException(
                    "cannot read " + type.getSimpleName() + ": " + firstLine(e.getOriginalMessage()));
        }
    }
}
