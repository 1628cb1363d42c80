package io.lahar.console.sse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseClientTest {

    /** A connection whose write queue is full until {@link #room} is called. */
    static final class FakeConnection implements SseClient.Connection {
        final List<String> written = new ArrayList<>();
        boolean full = true;
        boolean closed;
        Runnable drain;

        @Override
        public void run(Runnable task) {
            task.run();
        }

        @Override
        public boolean full() {
            return full;
        }

        @Override
        public void write(String text) {
            written.add(text);
        }

        @Override
        public void onDrain(Runnable then) {
            drain = then;
        }

        @Override
        public void close() {
            closed = true;
        }

        void room() {
            full = false;
            Runnable d = drain;
            drain = null;
            d.run();
        }
    }

    @Test
    void aBrowserThatDoesNotReadIsDroppedOnceItsQueueIsFullAndNeverWaitedFor() {
        FakeConnection c = new FakeConnection();
        SseClient client = new SseClient("slow", c, 3);
        assertThat(client.offer("1")).isEqualTo(SseClient.Offer.QUEUED);
        assertThat(client.offer("2")).isEqualTo(SseClient.Offer.QUEUED);
        assertThat(client.offer("3")).isEqualTo(SseClient.Offer.QUEUED);
        assertThat(client.pending()).isEqualTo(3);
        assertThat(client.offer("4")).isEqualTo(SseClient.Offer.DROPPED);
        assertThat(c.closed).isTrue();
        assertThat(client.offer("5")).isEqualTo(SseClient.Offer.GONE);
        assertThat(client.pending()).as("nothing kept for a dropped client").isZero();
        assertThat(c.written).isEmpty();
    }

    @Test
    void eventsWaitForRoomAndGoOutInOrder() {
        FakeConnection c = new FakeConnection();
        SseClient client = new SseClient("fine", c, 3);
        client.offer("1");
        client.offer("2");
        c.room();
        assertThat(c.written).containsExactly("1", "2");
        client.offer("3");
        assertThat(c.written).containsExactly("1", "2", "3");
        assertThat(client.pending()).isZero();
    }

    @Test
    void aClosedClientTakesNothing() {
        FakeConnection c = new FakeConnection();
        SseClient client = new SseClient("gone", c, 3);
        client.closed();
        assertThat(client.offer("1")).isEqualTo(SseClient.Offer.GONE);
    }
}
