package io.lahar.streams.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApiTokenTest {

    @TempDir
    Path dir;

    @Test
    void withoutATokenOneIsGeneratedIntoItsFileReadableByTheOwnerOnly() throws Exception {
        Path file = dir.resolve("data/api-token");

        ApiToken token = new ApiToken(Optional.empty(), Optional.of(file.toString()));

        String written = Files.readString(file).strip();
        assertThat(written).hasSizeGreaterThanOrEqualTo(43); // 256 bits, base64url
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
                .isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())))
                .isEqualTo("rwx------");
        assertThat(token.admits("Bearer " + written)).isTrue();
        assertThat(token.admits("Bearer " + written + "x")).isFalse();
        assertThat(token.admits(null)).isFalse();
        try (var leftovers = Files.list(file.getParent())) {
            assertThat(leftovers).containsExactly(file);
        }
    }

    @Test
    void aSecondInstanceOnTheSameFileSharesTheToken() {
        Path file = dir.resolve("api-token");
        ApiToken first = new ApiToken(Optional.empty(), Optional.of(file.toString()));

        ApiToken second = new ApiToken(Optional.empty(), Optional.of(file.toString()));

        assertThat(second.header()).isEqualTo(first.header());
    }

    @Test
    void aConfiguredTokenWinsAndNoFileIsWritten() {
        Path file = dir.resolve("api-token");

        ApiToken token = new ApiToken(Optional.of("from-a-secret"), Optional.of(file.toString()));

        assertThat(token.admits("Bearer from-a-secret")).isTrue();
        assertThat(file).doesNotExist();
    }

    @Test
    void aFileOthersMayReadOrChangeIsRefused() throws Exception {
        Path file = Files.writeString(dir.resolve("api-token"), "guessable\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-rw-r--"));

        assertThatThrownBy(() -> new ApiToken(Optional.empty(), Optional.of(file.toString())))
                .hasMessageContaining("rw-rw-r--")
                .hasMessageContaining("chmod 600");
    }

    @Test
    void anEmptyFileIsRefused() throws Exception {
        Path file = Files.writeString(dir.resolve("api-token"), "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));

        assertThatThrownBy(() -> new ApiToken(Optional.empty(), Optional.of(file.toString())))
                .hasMessageContaining("empty");
    }
}
