package io.lahar.cli.job;

import io.lahar.cli.Verb;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpTimeoutException;
import picocli.CommandLine.Mixin;

/**
 * What every verb over the REST API shares ({@code lahar job}, {@code lahar flow}, {@code lahar jobtemplate}):
 * the API options, the streams, and the handling of an unreachable server.
 */
public abstract class ApiVerb extends Verb {

    @Mixin
    ApiOptions apiOptions;

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
