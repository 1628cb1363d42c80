package io.lahar.streams.flow;

import io.lahar.core.api.JobTemplate;
import java.util.List;

/**
 * What the {@code job-templates} store keeps per JobTemplate key: the admitted template (null
 * when none exists) and the recent command answers. This store, on the partition of the
 * template's key, is the authority for its commands (create or replace, delete); the compacted
 * {@code lahar.job-templates} topic it feeds is what flows on every partition read.
 */
public record TemplateEntry(JobTemplate template, List<FlowVerdict> recent) {

    public TemplateEntry {
        recent = recent == null ? List.of() : List.copyOf(recent);
    }

    public static TemplateEntry empty() {
        return new TemplateEntry(null, List.of());
    }

    TemplateEntry withTemplate(JobTemplate next) {
        return new TemplateEntry(next, recent);
    }

    TemplateEntry remember(FlowVerdict verdict) {
        return new TemplateEntry(template, FlowVerdict.remember(recent, verdict));
    }
}
