package io.lahar.streams.rest;

import io.lahar.streams.flow.FlowEntry;
import io.lahar.streams.flow.FlowStores;
import io.lahar.streams.flow.TemplateEntry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The live JobFlows and JobTemplates of this instance's part of the flow engine's stores, decoded. */
@ApplicationScoped
public class FlowQueries {

    @Inject
    StoreQueries stores;

    public Optional<FlowEntry> flow(String key) {
        byte[] bytes = stores.get(StoreQueries.FLOWS, key);
        return bytes == null
                ? Optional.empty()
                : Optional.of(FlowStores.decode(bytes, FlowEntry.class)).filter(FlowEntry::live);
    }

    public List<FlowEntry> flows() {
        List<FlowEntry> out = new ArrayList<>();
        for (byte[] bytes : stores.all(StoreQueries.FLOWS)) {
            FlowEntry e = FlowStores.decode(bytes, FlowEntry.class);
            if (e.live()) {
                out.add(e);
            }
        }
        return out;
    }

    public Optional<TemplateEntry> template(String key) {
        byte[] bytes = stores.get(StoreQueries.TEMPLATES, key);
        return bytes == null
                ? Optional.empty()
                : Optional.of(FlowStores.decode(bytes, TemplateEntry.class)).filter(t -> t.template() != null);
    }

    public List<TemplateEntry> templates() {
        List<TemplateEntry> out = new ArrayList<>();
        for (byte[] bytes : stores.all(StoreQueries.TEMPLATES)) {
            TemplateEntry e = FlowStores.decode(bytes, TemplateEntry.class);
            if (e.template() != null) {
                out.add(e);
            }
        }
        return out;
    }
}
