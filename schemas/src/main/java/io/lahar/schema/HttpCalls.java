package io.lahar.schema;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * How a service waits on another's HTTP answer ({@code java.net.http}): the whole answer, body
 * included, within the request's timeout. Why: that client's own timeout ends when the headers
 * arrive, so a peer that sent them and then went silent (a connection lost mid-answer, a process
 * frozen mid-write) held the calling thread for good.
 */
public final class HttpCalls {

    private HttpCalls() {}

    /**
     * {@code client.send(request, body)}, whose answer comes whole within {@code request}'s timeout
     * or not at all: past it, the exchange is cancelled and an {@link HttpTimeoutException} thrown,
     * as the client throws for silence before the headers.
     *
     * @throws IllegalArgumentException when the request has no timeout
     */
    public static <T> HttpResponse<T> send(HttpClient client, HttpRequest request, HttpResponse.BodyHandler<T> body)
            throws IOException, InterruptedException {
        Duration timeout = request.timeout()
                .orElseThrow(
                        () -> new IllegalArgumentException("no timeout on " + request.method() + " " + request.uri()));
        CompletableFuture<HttpResponse<T>> answer = client.sendAsync(request, body);
        try {
            return answer.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            answer.cancel(true);
            throw new HttpTimeoutException("no whole answer to " + request.method() + " " + request.uri() + " within "
                    + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            answer.cancel(true);
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) throw io;
            if (cause instanceof RuntimeException r) throw r;
            if (cause instanceof Error error) throw error;
            throw new IOException(cause);
        }
    }
}
