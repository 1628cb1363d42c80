package io.lahar.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ObjectJournalTest {

    private static final String PODS = "/api/v1/namespaces/default/pods";

    @TempDir
    Path dir;

    @Test
    void whatWasRecordedIsReadBackCreatedUpdatedAndDeleted() {
        try (ObjectJournal journal = ObjectJournal.open(dir)) {
            journal.record(PODS, null, pod("a", 1), 0);
            journal.record(PODS, null, pod("b", 2), 0);
            journal.record(PODS + "/a", pod("a", 1), pod("a", 3), 0);
            journal.record(PODS + "/b", pod("b", 2), null, 0);
        }
        try (ObjectJournal journal = ObjectJournal.open(dir)) {
            assertThat(journal.objects()).containsExactly(new ObjectJournal.Stored(PODS + "/a", pod("a", 3)));
            assertThat(journal.maxResourceVersion()).isEqualTo(3);
        }
    }

    @Test
    void theStoresVersionIsKeptPastDeletionsAndCompactionSoARestartedStoreNeverGivesOneOutAgain() {
        try (ObjectJournal journal = ObjectJournal.open(dir)) {
            journal.record(PODS, null, pod("a", 1), 1);
            journal.record(PODS, null, pod("b", 2), 2);
            journal.record(PODS + "/b", pod("b", 2), pod("b", 7), 7);
            journal.record(PODS + "/b", pod("b", 7), null, 7);
            assertThat(journal.maxResourceVersion()).isEqualTo(7);
        }
        try (ObjectJournal journal = ObjectJournal.open(dir)) { // read back and compacted
            assertThat(journal.objects()).containsExactly(new ObjectJournal.Stored(PODS, pod("a", 1)));
            assertThat(journal.maxResourceVersion()).isEqualTo(7);
        }
        try (ObjectJournal journal = ObjectJournal.open(dir)) { // from the snapshot alone
            assertThat(journal.maxResourceVersion()).isEqualTo(7);
        }
    }

    @Test
    void aLastLineCutShortByACrashIsSkippedAndNeverContinued() throws IOException {
        try (ObjectJournal journal = ObjectJournal.open(dir)) {
            journal.record(PODS, null, pod("a", 1), 0);
        }
        Files.writeString(
                dir.resolve(ObjectJournal.JOURNAL),
                "{\"op\":\"put\",\"path\":\"" + PODS + "\",\"obj",
                StandardCharsets.UTF_8,
                StandardOpenOption.APPEND);

        try (ObjectJournal journal = ObjectJournal.open(dir)) {
            assertThat(journal.objects()).extracting(ObjectJournal.Stored::json).containsExactly(pod("a", 1));
            journal.record(PODS, null, pod("c", 2), 0);
        }
        try (ObjectJournal journal = ObjectJournal.open(dir)) {
            assertThat(journal.objects())
                    .extracting(ObjectJournal.Stored::json)
                    .containsExactly(pod("a", 1), pod("c", 2));
        }
    }

    @Test
    void aJournalReplayedOverTheSnapshotMadeFromItGivesTheSameObjects() throws IOException {
        try (ObjectJournal journal = ObjectJournal.open(dir)) {
            journal.record(PODS, null, pod("a", 1), 0);
            journal.record(PODS, null, pod("b", 2), 0);
            journal.record(PODS + "/a", pod("a", 1), null, 0);
            journal.record(PODS + "/b", pod("b", 2), pod("b", 4), 0);
        }
        String journalLines = Files.readString(dir.resolve(ObjectJournal.JOURNAL));
        ObjectJournal.open(dir).close(); // folds the journal into a snapshot
        assertThat(Files.readString(dir.resolve(ObjectJournal.JOURNAL))).isEmpty();
        // A crash after the new snapshot was renamed into place, before the journal was emptied.
        Files.writeString(dir.resolve(ObjectJournal.JOURNAL), journalLines);

        try (ObjectJournal journal = ObjectJournal.open(dir)) {
            assertThat(journal.objects()).extracting(ObjectJournal.Stored::json).containsExactly(pod("b", 4));
        }
    }

    @Test
    void theJournalIsFoldedIntoASnapshotOnceItOutgrowsTheObjects() throws IOException {
        try (ObjectJournal journal = ObjectJournal.open(dir)) {
            long limit = journal.compactAfter();
            for (int i = 0; i < limit; i++) {
                journal.record(PODS + "/a", i == 0 ? null : pod("a", i), pod("a", i + 1), 0);
            }
            assertThat(Files.readAllLines(dir.resolve(ObjectJournal.JOURNAL))).isEmpty();
            assertThat(Files.readAllLines(dir.resolve(ObjectJournal.SNAPSHOT)))
                    .hasSize(2); // its version and the one object
            journal.record(PODS + "/a", pod("a", (int) limit), pod("a", (int) limit + 1), 0);
        }
        try (ObjectJournal journal = ObjectJournal.open(dir)) {
            assertThat(journal.objects())
                    .extracting(ObjectJournal.Stored::json)
                    .containsExactly(pod("a", (int) journal.compactAfter() + 1));
        }
    }

    @Test
    void aDirectoryHeldByAnotherEmulatorIsRefused() {
        try (ObjectJournal first = ObjectJournal.open(dir)) {
            assertThatThrownBy(() -> ObjectJournal.open(dir)).hasMessage(dir + " is in use by another kube-emulator");
        }
        ObjectJournal.open(dir).close(); // free again once the first let go
    }

    @Test
    void aDamagedLineBeforeTheLastIsAnErrorNotSilentLoss() throws IOException {
        Files.writeString(
                dir.resolve(ObjectJournal.SNAPSHOT), "{not json\n{\"op\":\"put\",\"path\":\"p\",\"object\":{}}\n");

        assertThatThrownBy(() -> ObjectJournal.open(dir))
                .hasMessageContaining(ObjectJournal.SNAPSHOT + ":1: not a journal line");
        // The refused open let go of the lock: a second one meets the same damage, not a lock.
        assertThatThrownBy(() -> ObjectJournal.open(dir)).hasMessageContaining(":1: not a journal line");
    }

    private static String pod(String name, int resourceVersion) {
        return "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" + name
                + "\",\"namespace\":\"default\",\"resourceVersion\":\"" + resourceVersion + "\"}}";
    }
}
