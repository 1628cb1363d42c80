package io.lahar.schema;

import static org.assertj.core.api.Assertions.assertThat;

import io.lahar.schema.AvscFiles.Version;
import org.junit.jupiter.api.Test;

/** The newest release is found by number, not by spelling. */
class VersionTest {

    @Test
    void versionsCompareNumericallyPartByPart() {
        assertThat(Version.parse("0.10.0")).isGreaterThan(Version.parse("0.9.3"));
        assertThat(Version.parse("1.0")).isEqualByComparingTo(Version.parse("1.0.0"));
        assertThat(Version.parse("0.1.1")).isLessThan(Version.parse("0.2.0"));
    }

    @Test
    void theLatestReleaseIsTheLastVersionDirectory() {
        assertThat(AvscFiles.latestReleased())
                .isEqualTo(AvscFiles.releasedVersions().getLast());
    }
}
