package io.lahar.cli.job;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * What every verb over the REST API shares ({@code lahar job}, {@code lahar flow}, {@code lahar jobtemplate}):
 * the API options, the streams, and the handling of an unreachable server.
 */
public abstract class ApiVerb implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    ApiOptions apiOptions;

    protected PrintWriter out() {
        return spec.commandLine().getOut();
    }

    protected PrintWriter err() {
        return spec.commandLine().getErr();
    }

    @Override
    public final Integer call() {
        try {
            return run(apiOptions.api());
        } catch (ConnectException e) {
            err().println("error: cannot reach the Lahar API (" + e.getMessage()
                    + "); is streams-app running? (--server, $LAHAR_SERVER)");
            return Output.EXIT_UNAVAILABLE;
        } catch (HttpTimeoutException e) {
            err().println("error: the Lahar API did not answer in time: " + e.getMessage());
            return Output.EXIT_UNAVAILABLE;
        } catch (IOException e) {
            err().println("error: " + e.getMessage());
            return Output.EXIT_UNAVAILABLE;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Output.EXIT_UNAVAILABLE;
        }
    }

    protected abstract int run(LaharApi api) throws IOException, InterruptedException;
}
