package io.lahar.scheduler.mapping;

import io.lahar.core.resource.Resource;
import io.lahar.core.scheduling.api.Problem;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Parses the Kubernetes quantity maps of the Avro records, naming a bad entry by its path. */
final class Quantities {
    private Quantities() {}

    static Resource parse(Map<String, String> raw, String path, List<Problem> problems) {
        return parse(raw, path, problems, Resource::parse);
    }

    static Resource parseLimit(Map<String, String> raw, String path, List<Problem> problems) {
        return parse(raw, path, problems, Resource::parseLimit);
    }

    private static Resource parse(
            Map<String, String> raw, String path, List<Problem> problems, Function<Map<String, ?>, Resource> parser) {
        Map<String, String> plain = Strings.map(raw);
        try {
            return parser.apply(plain);
        } catch (IllegalArgumentException e) {
            // Resource.parse names each bad key ("cpu: ..."); give every one its own full path.
            for (String part : e.getMessage().split("; ")) {
                int colon = part.indexOf(':');
                String key = colon < 0 ? "" : part.substring(0, colon);
                String msg = colon < 0 ? part : part.substring(colon + 1).strip();
                problems.add(new Problem(key.isEmpty() ? path : path + "." + key, msg));
            }
            return null;
        }
    }
}
