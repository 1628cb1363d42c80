package io.lahar.streams.flow;

import io.lahar.core.flow.FlowInfo;
import java.util.List;

/**
 * What the {@code flows} store keeps per JobFlow key: the flow engine's {@link FlowInfo} (null
 * when no flow of that name exists: never submitted, or deleted), the recent command answers,
 * and a submission held back while the JobTemplates it names are not visible yet.
 * The entry of a deleted flow is kept with its answers, so a retried delete is answered alike.
 */
public record FlowEntry(FlowInfo info, List<FlowVerdict> recent, HeldSubmit held) {

    public FlowEntry {
        recent = recent == null ? List.of() : List.copyOf(recent);
    }

    public static FlowEntry empty() {
        return new FlowEntry(null, List.of(), null);
    }

    /** A flow of this name exists: submitted and not deleted. */
    public boolean live() {
        return info != null && info.flow() != null && !info.deleted();
    }

    FlowEntry withInfo(FlowInfo next) {
        return new FlowEntry(next, recent, held);
    }

    FlowEntry withHeld(HeldSubmit next) {
        return new FlowEntry(info, recent, next);
    }

    FlowEntry remember(FlowVerdict verdict) {
        return new FlowEntry(info, FlowVerdict.remember(recent, verdict), held);
    }
}
