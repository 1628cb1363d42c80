package io.lahar.system;

import io.lahar.testkit.LaharInfraExtension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Resolves a {@link LaharSystem} parameter to the one system every test class of this JVM shares:
 * started on first use (on the shared broker and registry, {@code LaharInfra}), stopped when the
 * root context closes after the last test. Starting three services once rather than per class
 * keeps the module's time down.
 */
final class LaharSystemExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(LaharSystemExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == LaharSystem.class;
    }

    @Override
    public LaharSystem resolveParameter(ParameterContext parameter, ExtensionContext context) {
        // Closed (AutoCloseable) by JUnit with the root store, before the infrastructure is.
        return context.getRoot()
                .getStore(NAMESPACE)
                .computeIfAbsent(
                        LaharSystem.class,
                        key -> LaharSystem.start(LaharInfraExtension.infra(context)),
                        LaharSystem.class);
    }
}
