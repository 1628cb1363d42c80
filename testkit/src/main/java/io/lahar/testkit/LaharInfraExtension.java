package io.lahar.testkit;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Resolves a {@link LaharInfra} parameter (constructor, lifecycle or test method) to the one
 * instance shared by every test of this JVM ({@link LaharInfra#shared()}). It is kept in the root
 * extension context's store, so JUnit stops it once, after the last test of the run.
 */
public final class LaharInfraExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(LaharInfraExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == LaharInfra.class;
    }

    @Override
    public LaharInfra resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return infra(extensionContext);
    }

    /** The shared infrastructure, for extensions and tests that do not take it as a parameter. */
    public static LaharInfra infra(ExtensionContext context) {
        // The store entry only ties the shutdown to the end of the run; shared() is the instance.
        context.getRoot()
                .getStore(NAMESPACE)
                .computeIfAbsent(SharedInfra.class, key -> new SharedInfra(), SharedInfra.class);
        return LaharInfra.shared();
    }

    /**
     * Closed by JUnit when the root context closes: stops the pair if this JVM started it (and no
     * Quarkus application still uses it; then the JVM's shutdown hook stops it).
     */
    static final class SharedInfra implements AutoCloseable {
        @Override
        public void close() {
            LaharInfra.closeSharedAfterTests();
        }
    }
}
