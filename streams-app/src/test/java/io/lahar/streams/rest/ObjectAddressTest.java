package io.lahar.streams.rest;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.schema.Topics;
import org.junit.jupiter.api.Test;

class ObjectAddressTest {

    @Test
    void theKeyIsTheStoreKeyAndThePathEncodesEachSegment() {
        ObjectAddress at = new ObjectAddress(JobFlowResource.COLLECTION, "team a", "x/y+z");

        assertThat(at.key()).isEqualTo(Topics.jobKey("team a", "x/y+z"));
        assertThat(at.path()).isEqualTo("/api/v1/jobflows/team%20a/x%2Fy%2Bz");
    }

    @Test
    void aCreatedObjectsLocationIsItsPath() {
        assertThat(Answers.created(JobResource.COLLECTION, "ml", "j 1", null).getLocation())
                .hasToString(new ObjectAddress(JobResource.COLLECTION, "ml", "j 1").path())
                .hasToString("/api/v1/jobs/ml/j%201");
    }
}
