package io.lahar.streams.rest;

import io.lahar.schema.FlowKind;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;

/**
 * What the JobFlow and JobTemplate resources share: both kinds live in the flow engine's stores and
 * are written as FlowCommands of their {@link FlowKind}, so they are submitted and deleted the same
 * way; only their reads (store, rows, view) are their own. The endpoints' paths and parameters come
 * from {@link ObjectEndpoints}.
 */
abstract class FlowObjectResource implements ObjectEndpoints {

    @Inject
    FlowQueries queries;

    @Inject
    FlowRequests requests;

    @Inject
    StoreQueries stores;

    private final FlowKind kind;
    private final String apiVersion;
    private final String collection;

    FlowObjectResource(FlowKind kind, String apiVersion, String collection) {
        this.kind = kind;
        this.apiVersion = apiVersion;
        this.collection = collection;
    }

    @Override
    public Response submit(String body, String requestId, String fieldValidation) {
        return requests.submit(body, kind, apiVersion, collection, requestId, fieldValidation);
    }

    @Override
    public Response delete(String namespace, String name, String message, String requestId) {
        return requests.answer(FlowRequests.delete(requestId, kind, namespace, name, message), FlowRequests::deleted);
    }
}
