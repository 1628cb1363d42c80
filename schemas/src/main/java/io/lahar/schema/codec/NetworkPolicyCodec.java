package io.lahar.schema.codec;

import com.fasterxml.jackson.databind.JsonNode;
import io.lahar.core.job.WorldAction;
import io.lahar.schema.EnsureNetworkPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The svc plugin's NetworkPolicy (a {@link WorldAction.CreateObject}) to its {@link EnsureNetworkPolicy} intent. */
final class NetworkPolicyCodec {

    private static final Set<String> SPEC_FIELDS = Set.of("podSelector", "ingress", "policyTypes");

    private NetworkPolicyCodec() {}

    /**
     * The branch carries pod selectors by their labels (what the svc plugin's policy is made of); a
     * policy with more than that is reported, never sent with a part missing.
     */
    static PodIntentCodec.Mapping map(PodIntentCodec.Context ctx, WorldAction.CreateObject o) {
        JsonNode spec = o.object().path("spec");
        List<String> unsupported = new ArrayList<>();
        spec.properties().forEach(e -> {
            if (!SPEC_FIELDS.contains(e.getKey())) {
                unsupported.add("spec." + e.getKey());
            }
        });
        Map<String, String> podSelector = matchLabels(spec.path("podSelector"), "spec.podSelector", unsupported);
        List<Map<String, String>> from = new ArrayList<>();
        JsonNode ingress = spec.path("ingress");
        for (int i = 0; i < ingress.size(); i++) {
            JsonNode rule = ingress.get(i);
            String at = "spec.ingress[" + i + "]";
            rule.properties().forEach(e -> {
                if (!"from".equals(e.getKey())) {
                    unsupported.add(at + "." + e.getKey());
                }
            });
            JsonNode peers = rule.path("from");
            if (peers.isEmpty()) {
                // A rule without peers admits every source: a list of peers cannot say that.
                unsupported.add(at + " without from");
            }
            for (int j = 0; j < peers.size(); j++) {
                JsonNode peer = peers.get(j);
                String peerAt = at + ".from[" + j + "]";
                peer.properties().forEach(e -> {
                    if (!"podSelector".equals(e.getKey())) {
                        unsupported.add(peerAt + "." + e.getKey());
                    }
                });
                from.add(matchLabels(peer.path("podSelector"), peerAt + ".podSelector", unsupported));
            }
        }
        if (!unsupported.isEmpty()) {
            return new PodIntentCodec.NotInContract(
                    "NetworkPolicy " + o.name() + ": EnsureNetworkPolicy carries pod selectors by"
                            + " labels only, not " + String.join(", ", unsupported));
        }
        List<String> types = new ArrayList<>();
        spec.path("policyTypes").forEach(t -> types.add(t.asText()));
        Map<String, String> labels =
                PodIntentCodec.strings(o.object().path("metadata").path("labels"));
        labels.putAll(PodIntentCodec.jobLabels(ctx));
        return PodIntentCodec.intent(
                ctx,
                EnsureNetworkPolicy.newBuilder()
                        .setName(o.name())
                        .setLabels(labels)
                        .setPodSelector(podSelector)
                        .setIngressFrom(from)
                        .setPolicyTypes(types.isEmpty() ? List.of("Ingress") : types)
                        .build());
    }

    private static Map<String, String> matchLabels(JsonNode selector, String at, List<String> unsupported) {
        selector.properties().forEach(e -> {
            if (!"matchLabels".equals(e.getKey())) {
                unsupported.add(at + "." + e.getKey());
            }
        });
        return PodIntentCodec.strings(selector.path("matchLabels"));
    }
}
