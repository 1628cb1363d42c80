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
