package io.lahar.core.scheduling.plugins;

import static io.lahar.core.scheduling.Fixtures.gang;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lahar.core.scheduling.api.NodeInfo;
import io.lahar.core.scheduling.api.Problem;
import io.lahar.core.scheduling.api.Snapshot;
import io.lahar.core.scheduling.framework.InvalidConfException;
import io.lahar.core.scheduling.framework.PluginRegistry;
import io.lahar.core.scheduling.framework.Scheduler;
import io.lahar.core.scheduling.framework.SchedulerConf;
import io.lahar.core.scheduling.framework.SessionResult;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The example of core/README.md, "Adding a scheduler plugin": registered, configured, run in a session. */
class ZonePreferenceTest {

    /** Step 2 of the recipe: the registry that knows the plugin (a built-in one goes in {@code defaults()}). */
    private static final PluginRegistry REGISTRY =
            PluginRegistry.defaults().registerPlugin(ZonePreference.NAME, ZonePreference::new);

    /** Volcano's default tiers, with the plugin added to the second one as the recipe's conf shows. */
    private static String conf(String pluginEntry) {
        return SchedulerConf.DEFAULT_YAML + "  - " + pluginEntry + "\n";
    }

    /** n0 in zone a, n1 and n2 in zone b; 4 cpu each. */
    private static final List<NodeInfo> NODES = List.of(node("n0", "a"), node("n1", "b"), node("n2", "b"));

    private static NodeInfo node(String name, String zone) {
        return NodeInfo.builder(name)
                .allocatable(Map.of("cpu", "4", "memory", "16Gi"))
                .label(ZonePreference.ZONE_LABEL, zone)
                .build();
    }

    private static Map<String, Long> perNode(String yaml, int pods) {
        SchedulerConf conf = SchedulerConf.parse(yaml, REGISTRY);
        SessionResult r = new Scheduler(conf, REGISTRY)
                .schedule(new Snapshot(NODES, List.of(), List.of(gang("j", "default", pods, pods, "1"))));
        return r.bindings().stream()
                .collect(Collectors.groupingBy(SessionResult.Binding::node, TreeMap::new, Collectors.counting()));
    }

    @Test
    void placesTheGangInThePreferredZone() {
        assertThat(perNode(SchedulerConf.DEFAULT_YAML, 6)).containsEntry("n0", 2L);
        assertThat(perNode(conf("{name: zonepreference, arguments: {zonepreference.zone: b}}"), 6))
                .containsExactly(Map.entry("n1", 3L), Map.entry("n2", 3L));
    }

    @Test
    void aPreferenceNotAFilter() {
        // Zone b holds 8 cpu: what it cannot take goes to zone a.
        assertThat(perNode(conf("{name: zonepreference, arguments: {zonepreference.zone: b}}"), 10))
                .containsExactly(Map.entry("n0", 2L), Map.entry("n1", 4L), Map.entry("n2", 4L));
    }

    @Test
    void weightZeroAndTheNodeOrderSwitchTurnItOff() {
        Map<String, Long> without = perNode(SchedulerConf.DEFAULT_YAML, 6);
        assertThat(perNode(
                        conf("{name: zonepreference, arguments: {zonepreference.zone: b, zonepreference.weight: 0}}"),
                        6))
                .isEqualTo(without);
        assertThat(perNode(
                        conf("{name: zonepreference, enabledNodeOrder: false, arguments: {zonepreference.zone: b}}"),
                        6))
                .isEqualTo(without);
    }

    @Test
    void theConfNamesEveryBadArgumentWithItsPath() {
        String path = "tiers[1].plugins[5].arguments";
        assertThatThrownBy(() -> SchedulerConf.parse(conf("{name: zonepreference}"), REGISTRY))
                .isInstanceOfSatisfying(
                        InvalidConfException.class,
                        e -> assertThat(e.problems())
                                .containsExactly(new Problem(
                                        path, "argument zonepreference.zone: the zone to prefer is required")));
        assertThatThrownBy(() -> SchedulerConf.parse(
                        conf("{name: zonepreference, arguments: {zonepreference.zones: b}}"), REGISTRY))
                .isInstanceOfSatisfying(
                        InvalidConfException.class,
                        e -> assertThat(e.problems())
                                .containsExactly(
                                        new Problem(
                                                path,
                                                "unknown argument zonepreference.zones (known: zonepreference.zone, zonepreference.weight)")));
        assertThatThrownBy(() -> SchedulerConf.parse(
                        conf("{name: zonepreference, arguments: {zonepreference.zone: b, zonepreference.weight: -1}}"),
                        REGISTRY))
                .isInstanceOfSatisfying(
                        InvalidConfException.class,
                        e -> assertThat(e.problems())
                                .containsExactly(new Problem(
                                        path, "argument zonepreference.weight: must not be negative, got -1.0")));
    }

    @Test
    void aRegistryWithoutItRejectsTheName() {
        assertThatThrownBy(
                        () -> SchedulerConf.parse(conf("{name: zonepreference, arguments: {zonepreference.zone: b}}")))
                .isInstanceOfSatisfying(
                        InvalidConfException.class,
                        e -> assertThat(e.problems()).singleElement().satisfies(p -> {
                            assertThat(p.path()).isEqualTo("tiers[1].plugins[5].name");
                            assertThat(p.message()).startsWith("unknown plugin \"zonepreference\"");
                        }));
    }
}
