package io.lahar.cli.flow;

import com.sun.net.httpserver.HttpServer;
import io.lahar.cli.Lahar;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A stand-in for the streams-app's REST API: records every request and answers from a queue of
 * replies (the last one repeats), so a test can script "201, then 422" for a two-document file.
 */
public final class FakeApi implements AutoCloseable {

    /** What the server saw. */
    public record Seen(
            String method, String uri, String contentType, String authorization, String requestId, String body) {
        public String line() {
            return method + " " + uri;
        }
    }

    /** One scripted answer. */
    public record Reply(int status, String body) {}

    public final List<Seen> seen = new CopyOnWriteArrayList<>();
    private final Deque<Reply> replies = new ArrayDeque<>();
    private Reply last = new Reply(200, "{}");
    private final HttpServer server;
    public final StringWriter out = new StringWriter();
    public final StringWriter err = new StringWriter();

    public FakeApi() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            seen.add(new Seen(
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().toString(),
                    exchange.getRequestHeaders().getFirst("Content-Type"),
                    exchange.getRequestHeaders().getFirst("Authorization"),
                    exchange.getRequestHeaders().getFirst("X-Lahar-Request-Id"),
                    new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            Reply reply = next();
            byte[] body = reply.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(reply.status(), body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    private synchronized Reply next() {
        if (!replies.isEmpty()) {
            last = replies.poll();
        }
        return last;
    }

    /** Answers the next requests with these, in order; the last one stays. */
    public synchronized FakeApi reply(int status, String body) {
        replies.add(new Reply(status, body));
        return this;
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Runs {@code lahar ARGS --server <this>} and returns the exit code; output lands in {@link #out} and {@link #err}. */
    public int lahar(String... args) {
        String[] all = new String[args.length + 2];
        System.arraycopy(args, 0, all, 0, args.length);
        all[args.length] = "--server";
        all[args.length + 1] = url();
        return Lahar.run(all, new PrintWriter(out), new PrintWriter(err));
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
