package io.lahar.streams.rest;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.core.Response;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/** A write too large for a record is answered 413 with the sizes, a broker that does not take it 503: never 500. */
class BodyLimitTest {

    private final BodyLimit limit = new BodyLimit();

    @Test
    void aBodyOverTheLimitIsRefusedWithBothSizes() {
        limit.maxBytes = 10;
        assertThat(limit.refuseBody("0123456789")).isNull();
        assertThat(limit.refuseBody(null)).isNull();
        Response r = limit.refuseBody("ééééé-");
        assertThat(r.getStatus()).isEqualTo(413);
        assertThat(((ApiError) r.getEntity()).violations())
                .singleElement()
                .extracting(ApiError.Reason::message)
                .isEqualTo("the request body is 11 bytes, over the limit of 10 bytes (lahar.api.max-body-bytes):"
                        + " an object's state must fit in one record");
        assertThat(limit.refuseManifest("{\"a\":\"0123456789\"}").getStatus()).isEqualTo(413);
    }

    @Test
    void aCommandTheBrokerRefusesIs413OrRetried() {
        Response tooLarge =
                Answers.notSent(new CommandGateway.NotSent("r1", new RecordTooLargeException("1048700 bytes")));
        assertThat(tooLarge.getStatus()).isEqualTo(413);
        assertThat(((ApiError) tooLarge.getEntity()).violations().getFirst().message())
                .isEqualTo("command r1 was not sent: 1048700 bytes");
        Response down = Answers.notSent(new CommandGateway.NotSent("r2", new TimeoutException("no broker")));
        assertThat(down.getStatus()).isEqualTo(503);
        assertThat(down.getHeaderString("Retry-After")).isEqualTo("1");
    }
}
