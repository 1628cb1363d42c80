package io.lahar.core.api;

/**
 * One flow entry of a JobFlow: the JobTemplate {@code name}, what it waits for, a patch applied
 * to the template, and Lahar's extensions {@code retry} and {@code when} (absent in Volcano,
 * harmless for plain Volcano manifests).
 */
public record Flow(String name, DependsOn dependsOn, Patch patch, FlowRetry retry, FlowWhen when) {

    public static Flow named(String name) {
        return new Flow(name, null, null, null, null);
    }
}
