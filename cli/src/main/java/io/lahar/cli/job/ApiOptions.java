package io.lahar.cli.job;

import picocli.CommandLine.Option;

/** Where the API is and who calls it: shared by every {@code lahar job} verb. */
public final class ApiOptions {

    static final String DEFAULT_SERVER = "http://127.0.0.1:8081";

    @Option(names = "--server", description = "streams-app REST API URL (default: $LAHAR_SERVER or " + DEFAULT_SERVER + ").")
    String server;

    @Option(names = "--token", description = "Bearer token for writes (default: $LAHAR_TOKEN).")
    String token;

    LaharApi api() {
        String url = server != null ? server : System.getenv().getOrDefault("LAHAR_SERVER", DEFAULT_SERVER);
        return new LaharApi(url, token != null ? token : System.getenv("LAHAR_TOKEN"));
    }
}
