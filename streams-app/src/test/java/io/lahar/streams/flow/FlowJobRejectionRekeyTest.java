package io.lahar.streams.flow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.schema.CommandResult;
import io.lahar.schema.Violation;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class FlowJobRejectionRekeyTest {

    private static CommandResult result(String kind, boolean accepted, String sender, String namespace) {
        return CommandResult.newBuilder()
                .setRequestId("jobflow:uid:create:f-a:1")
                .setNamespace(namespace)
                .setName("f-a")
                .setKind(kind)
                .setAccepted(accepted)
                .setViolations(accepted ? List.of() : List.of(new Violation("spec.queue", "gone")))
                .setSender(sender)
                .setTime(Instant.EPOCH)
                .build();
    }

    @Test
    void aRefusedCreateOfAFlowsJobGoesToTheFlow() {
        assertThat(FlowJobRejectionRekey.flowKey(result("SubmitJob", false, "jobflow:ns/f", "ns")))
                .hasValue("ns/f");
    }

    @Test
    void everythingElseIsDropped() {
        assertThat(FlowJobRejectionRekey.flowKey(result("SubmitJob", true, "jobflow:ns/f", "ns")))
                .as("accepted")
                .isEmpty();
        assertThat(FlowJobRejectionRekey.flowKey(result("DeleteJob", false, "jobflow:ns/f", "ns")))
                .as("a delete")
                .isEmpty();
        assertThat(FlowJobRejectionRekey.flowKey(result("SubmitJob", false, "cli", "ns")))
                .as("not a flow's")
                .isEmpty();
        assertThat(FlowJobRejectionRekey.flowKey(result("SubmitJob", false, null, "ns")))
                .as("no sender")
                .isEmpty();
        assertThat(FlowJobRejectionRekey.flowKey(result("SubmitJob", false, "jobflow:other/f", "ns")))
                .as("another namespace")
                .isEmpty();
        assertThat(FlowJobRejectionRekey.flowKey(result("SubmitJob", false, "jobflow:ns/", "ns")))
                .as("no flow name")
                .isEmpty();
    }

    @Test
    void aRefusalReKeyedToAnotherOwnerIsBadInputNamingTheOwner() {
        FlowJobRejectionRekey.requireRefusalOf(
                "ns/f", result("SubmitJob", false, "jobflow:ns/f", "ns"), FlowJobRejectionRekey.SENDER_PREFIX, "flow");
        assertThatThrownBy(() -> FlowJobRejectionRekey.requireRefusalOf(
                        "ns/g", result("SubmitJob", false, "cronjob:ns/f", "ns"), "cronjob:", "CronJob"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("key: command result jobflow:uid:create:f-a:1 re-keyed to \"ns/g\" is no refused job"
                        + " creation of that CronJob (sender cronjob:ns/f)");
        assertThatThrownBy(() -> FlowJobRejectionRekey.requireRefusalOf(
                        "ns/f",
                        result("SubmitJob", true, "jobflow:ns/f", "ns"),
                        FlowJobRejectionRekey.SENDER_PREFIX,
                        "flow"))
                .as("an accepted creation is no refusal")
                .hasMessageEndingWith("is no refused job creation of that flow (sender jobflow:ns/f)");
    }

    @Test
    void aHeldSubmitExpiresByEventTimeOrByTicks() {
        HeldSubmit h = new HeldSubmit("r", "s", "ns", "f", "{}", 1_000, 0);
        assertThat(h.expiresAt(1_000 + HeldSubmit.GRACE_MILLIS - 1)).isFalse();
        assertThat(h.expiresAt(1_000 + HeldSubmit.GRACE_MILLIS)).isTrue();
        HeldSubmit looked = h;
        for (int i = 0; i < HeldSubmit.MAX_CHECKS - 1; i++) {
            looked = looked.checked();
        }
        assertThat(looked.expiresAt(0))
                .as("a sender clock far ahead of the ticks")
                .isTrue();
        assertThat(looked.command().getRequestId()).isEqualTo("r");
        assertThat(looked.command().getTime().toEpochMilli()).isEqualTo(1_000);
    }
}
