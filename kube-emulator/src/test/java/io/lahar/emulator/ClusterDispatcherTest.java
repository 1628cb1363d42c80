package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ClusterDispatcherTest {

    @Test
    void readyzAnswers500UntilStartUpIsDoneWhileLivezAnswersAtOnce() {
        AtomicBoolean ready = new AtomicBoolean();
        ApiDiscovery discovery = ApiDiscovery.volcanoCluster();
        CrudStore store = new CrudStore(new IndexedCrudDispatcher(discovery.customResourceContexts()));
        ClusterDispatcher dispatcher = new ClusterDispatcher(
                discovery,
                store,
                Clock.systemUTC(),
                () -> "127.0.0.1:6443",
                () -> {},
                ready::get,
                BearerToken.of(java.util.Optional.empty()));

        assertThat(get(dispatcher, "/readyz").code()).isEqualTo(500);
        assertThat(get(dispatcher, "/livez").code()).isEqualTo(200);
        ready.set(true);
        MockResponse readyz = get(dispatcher, "/readyz");
        assertThat(readyz.code()).isEqualTo(200);
        assertThat(CrudStore.bodyOf(readyz)).isEqualTo("ok");
    }

    private static MockResponse get(ClusterDispatcher dispatcher, String path) {
        return dispatcher.dispatch(new RecordedRequest(
                "HTTP/1.1", HttpMethod.GET, path, Headers.builder().build(), new Buffer(null)));
    }
}
