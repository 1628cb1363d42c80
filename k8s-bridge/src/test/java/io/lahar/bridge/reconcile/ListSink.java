package io.lahar.bridge.reconcile;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.avro.specific.SpecificRecord;

/** A record sink that keeps what it is sent, for tests. */
class ListSink implements RecordSink {

    record Sent(String topic, String key, SpecificRecord value) {}

    final List<Sent> sent = new CopyOnWriteArrayList<>();

    @Override
    public void send(String topic, String key, SpecificRecord value) {
        sent.add(new Sent(topic, key, value));
    }

    <T> List<T> values(String topic, Class<T> type) {
        return sent.stream()
                .filter(s -> s.topic().equals(topic) && type.isInstance(s.value()))
                .map(s -> type.cast(s.value()))
                .toList();
    }
}
