package io.lahar.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;
import io.lahar.core.job.WorldAction;
import io.lahar.schema.CreatePod;
import io.lahar.schema.codec.PodIntentCodec;
import java.util.List;
import org.apache.avro.generic.GenericData;
import org.apache.avro.specific.SpecificRecord;

/**
 * The pod intents a simulated step would write to {@code lahar.pod-intents}, as {@code lahar
 * simulate --intents} shows them: each intent's branch and its fields, a CreatePod's template
 * (env, ports, command, what the plugins made of the pod) as JSON rather than the string the
 * record carries. An action the intent union has no branch for is shown as such.
 */
final class IntentView {

    private static final ObjectMapper JSON = new ObjectMapper();

    private IntentView() {}

    static ArrayNode of(Job job, int version, List<WorldAction> actions) {
        ArrayNode out = JSON.createArrayNode();
        String uid = job.metadata() == null || job.metadata().uid() == null
                ? ""
                : job.metadata().uid();
        PodIntentCodec.Context ctx = new PodIntentCodec.Context(job.namespace(), job.name(), uid, version, 0);
        for (WorldAction a : actions) {
            switch (PodIntentCodec.map(ctx, a)) {
                case PodIntentCodec.Intent i ->
                    out.add(intent((SpecificRecord) i.intent().getIntent()));
                case PodIntentCodec.NotInContract n -> out.addObject().put("notInContract", n.why());
                case PodIntentCodec.Elsewhere e -> {
                    // Pod groups and the job's own deletion travel on other topics.
                }
            }
        }
        return out;
    }

    private static ObjectNode intent(SpecificRecord body) {
        ObjectNode fields = (ObjectNode) read(GenericData.get().toString(body));
        if (body instanceof CreatePod c) {
            fields.set("template", read(c.getTemplate()));
        }
        ObjectNode wrapped = JSON.createObjectNode();
        wrapped.set(body.getSchema().getName(), fields);
        return wrapped;
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalStateException("an intent renders as JSON", e);
        }
    }
}
