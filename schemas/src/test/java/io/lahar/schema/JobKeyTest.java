package io.lahar.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class JobKeyTest {

    @Test
    void aKeyIsNamespaceSlashName() {
        assertThat(JobKey.of("default", "tf-job")).hasToString("default/tf-job");
        assertThat(Topics.jobKey("team-a", "mpi")).isEqualTo("team-a/mpi");
    }

    @Test
    void aKeyIsCheckedAsItWouldBeBuilt() {
        String[][] cases = {{"default", "tf-job"}, {"team-a", "mpi"}, {"", "x"}, {"a", ""}, {"a/b", "c"}, {"a", "b/c"}};
        String[] keys = {
            "default/tf-job",
            "team-a/mpi",
            "/x",
            "a/",
            "a/b/c",
            "default/tf-jo",
            "defaul/tf-job",
            "default-tf-job",
            "default/tf-jobs",
            "",
            "team-a/mpi/"
        };
        for (String[] c : cases) {
            for (String key : keys) {
                assertThat(Topics.isJobKey(key, c[0], c[1]))
                        .as("%s against %s/%s", key, c[0], c[1])
                        .isEqualTo(key.equals(Topics.jobKey(c[0], c[1])));
            }
        }
        assertThat(Topics.isJobKey(null, "a", "b")).isFalse();
        assertThat(Topics.isJobKey("a/b", null, "b")).isFalse();
        assertThat(Topics.isJobKey("a/b", "a", null)).isFalse();
    }

    @Test
    void aKeyParsesBack() {
        assertThat(JobKey.parse("default/tf-job")).contains(new JobKey("default", "tf-job"));
    }

    @Test
    void malformedKeysAreRejectedWithoutThrowing() {
        assertThat(JobKey.parse(null)).isEmpty();
        assertThat(JobKey.parse("tf-job")).isEmpty();
        assertThat(JobKey.parse("/tf-job")).isEmpty();
        assertThat(JobKey.parse("default/")).isEmpty();
        assertThat(JobKey.parse("a/b/c")).isEmpty();
    }

    @Test
    void buildingAKeyFromBadPartsFailsLoudly() {
        assertThatIllegalArgumentException().isThrownBy(() -> JobKey.of("default", "a/b"));
        assertThatIllegalArgumentException().isThrownBy(() -> JobKey.of("", "x"));
    }
}
