package io.lahar.core.flow;

/**
 * Something a person should know that is not a phase change, as Volcano's controller records
 * Kubernetes events: {@code Created} a job, {@code Retrying} one, {@code Skipped} an entry,
 * {@code TemplateNotFound}.
 */
public record FlowEvent(String reason, String message, long time) {}
