package io.lahar.cli.job;

import io.lahar.cli.Context;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * Where the API is and who calls it, shared by every verb over the REST API, resolved in the
 * {@link Context}'s order. The token is a secret: it comes from a file (the context's
 * {@code token.file}, or {@code $LAHAR_TOKEN_FILE}) rather than a command line others can read in
 * {@code ps}; {@code --token} and {@code $LAHAR_TOKEN} remain for scripts that hold it already.
 */
public final class ApiOptions {

    static final String DEFAULT_SERVER = "http://127.0.0.1:8081";

    @Option(names = "--context", paramLabel = "FILE", description = Context.OPTION_HELP)
    String context;

    @Option(
            names = "--server",
            description = "streams-app REST API URL (default: $LAHAR_SERVER, else the context's, else " + DEFAULT_SERVER
                    + ").")
    String server;

    @Option(
            names = "--token",
            description =
                    "API token (default: $LAHAR_TOKEN, the file $LAHAR_TOKEN_FILE, else the context's token file).")
    String token;

    LaharApi api() throws IOException {
        return api(System.getenv());
    }

    LaharApi api(Map<String, String> env) throws IOException {
        Context ctx;
        try {
            ctx = Context.find(context, env);
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage(), e);
        }
        String url = ctx.resolve(server, env, "LAHAR_SERVER", Context.SERVER).orElse(DEFAULT_SERVER);
        return new LaharApi(url, token(ctx, env).orElse(null));
    }

    private Optional<String> token(Context ctx, Map<String, String> env) throws IOException {
        // The context names the token's file, never the token.
        Optional<String> given = ctx.resolve(token, env, "LAHAR_TOKEN", null);
        if (given.isPresent()) {
            return given;
        }
        Optional<String> file = ctx.resolve(null, env, "LAHAR_TOKEN_FILE", Context.TOKEN_FILE);
        if (file.isEmpty()) {
            return Optional.empty();
        }
        try {
            String text = Files.readString(Path.of(file.get()), StandardCharsets.UTF_8)
                    .strip();
            return text.isEmpty() ? Optional.empty() : Optional.of(text);
        } catch (IOException e) {
            throw new IOException("cannot read the API token from " + file.get() + ": " + e.getMessage(), e);
        }
    }
}
