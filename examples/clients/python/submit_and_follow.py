#!/usr/bin/env python3
"""Submits a Volcano Job to Lahar from Python, reads the answer to it and follows the Job to a
final phase: a SubmitJob on lahar.job-commands, its CommandResult on lahar.command-results (found
by requestId), its JobStatusRecords on lahar.job-status. confluent-kafka (librdkafka) for Kafka,
Apache Avro for the values, and the registry's Confluent-compatible API for the schemas
(docs/topics.md, docs/asyncapi.yaml).

    submit_and_follow.py [--bootstrap HOST:PORT] [--registry URL] [--context FILE] [--timeout SECONDS] JOB.json

Exit status: 0 Completed, 3 Failed or Terminated, 1 rejected (every reason printed), 2 timed out.
"""
import argparse
import base64
import datetime
import io
import json
import os
import re
import struct
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid

import avro.io
import avro.name
import avro.schema
from confluent_kafka import Consumer, Producer, TopicPartition

COMMANDS = "lahar.job-commands"
RESULTS = "lahar.command-results"
STATUS = "lahar.job-status"
FINAL = {"Completed": 0, "Failed": 3, "Terminated": 3}


class Registry:
    """The registry's Confluent-compatible API, and the Confluent wire format: a zero byte, the
    schema id (4 bytes, big-endian), then the Avro binary."""

    def __init__(self, url, credentials=None):
        self.url = url.rstrip("/")
        self.schemas = {}
        self.headers = {"Accept": "application/vnd.schemaregistry.v1+json"}
        if credentials:
            # HTTP basic auth, as a registry started by bin/start asks of every client.
            pair = f"{credentials['username']}:{credentials['password']}".encode()
            self.headers["Authorization"] = "Basic " + base64.b64encode(pair).decode()

    def _call(self, path):
        request = urllib.request.Request(self.url + path, headers=self.headers)
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)

    def latest_id(self, subject):
        """The schema Lahar registered for the topic: a client writes with it and never registers
        its own (the registry would then refuse Lahar's, which names its nested records by reference)."""
        try:
            return self._call(f"/subjects/{subject}/versions/latest")["id"]
        except urllib.error.HTTPError as e:
            if e.code != 404:
                raise
            raise SystemExit(f"no schema for {subject} in the registry (HTTP 404): Lahar registers it when it "
                             "first writes the topic, e.g. with a `lahar submit` or the demo of bin/start")

    def schema(self, schema_id):
        if schema_id not in self.schemas:
            answer = self._call(f"/schemas/ids/{schema_id}")
            self.schemas[schema_id] = self._parse(answer, avro.name.Names())
        return self.schemas[schema_id]

    def _parse(self, answer, names):
        """A schema and the schemas it refers to by name (the registry keeps a nested record
        apart, as a subject of its own, and lists it under "references"): those first."""
        for reference in answer.get("references", []):
            if not names.has_name(reference["name"], None):
                subject = urllib.parse.quote(reference["subject"], safe="")
                self._parse(self._call(f"/subjects/{subject}/versions/{reference['version']}"), names)
        return avro.schema.make_avsc_object(json.loads(answer["schema"]), names)

    def encode(self, schema_id, datum):
        out = io.BytesIO()
        out.write(struct.pack(">bI", 0, schema_id))
        BranchNamingWriter(self.schema(schema_id)).write(datum, avro.io.BinaryEncoder(out))
        return out.getvalue()

    def decode(self, data):
        magic, schema_id = struct.unpack(">bI", data[:5])
        if magic != 0:
            raise ValueError(f"not the Confluent wire format (magic byte {magic})")
        return avro.io.DatumReader(self.schema(schema_id)).read(avro.io.BinaryDecoder(io.BytesIO(data[5:])))


class BranchNamingWriter(avro.io.DatumWriter):
    """Writes a union value given as Avro's JSON encoding gives it, {"<branch full name>": value}.
    Apache Avro's Python writer otherwise takes the LAST branch a value fits: {"manifest": ...}
    fits SubmitJob and UpdateJob alike, and would be written as an UpdateJob."""

    def write(self, datum, encoder):
        # No up-front validation: it knows only bare union values. Each value is checked as written.
        self.write_data(self.writers_schema, datum, encoder)

    def write_union(self, writers_schema, datum, encoder):
        if isinstance(datum, dict) and len(datum) == 1:
            (branch, value), = datum.items()
            for index, candidate in enumerate(writers_schema.schemas):
                if branch == getattr(candidate, "fullname", candidate.type):
                    encoder.write_long(index)
                    return self.write_data(candidate, value, encoder)
        return super().write_union(writers_schema, datum, encoder)


def options():
    """Each setting from its flag, else its environment variable, else the Lahar context (the file
    bin/start writes, as docs/cli.md says), else the default."""
    parser = argparse.ArgumentParser(description="Submit a Volcano Job to Lahar and follow it to a final phase.")
    parser.add_argument("manifest", help="the Volcano Job as JSON")
    parser.add_argument("--bootstrap")
    parser.add_argument("--registry", help="the registry's Confluent-compatible API (or Apicurio's own)")
    parser.add_argument("--registry-credentials", help="the registry's username= and password= (a properties file)")
    parser.add_argument("--context", help="the Lahar context file")
    parser.add_argument("--timeout", type=float, default=120)
    o = parser.parse_args()
    context = read_context(o.context or os.environ.get("LAHAR_CONTEXT"))
    o.bootstrap = o.bootstrap or os.environ.get("LAHAR_BOOTSTRAP") or context.get("bootstrap") or "127.0.0.1:9092"
    o.registry = ccompat(o.registry or os.environ.get("LAHAR_REGISTRY") or context.get("registry")
                         or "http://127.0.0.1:8080/apis/registry/v3")
    credentials = (o.registry_credentials or os.environ.get("LAHAR_REGISTRY_CREDENTIALS")
                   or context.get("registry.credentials.file"))
    o.credentials = read_properties(credentials) if credentials else None
    return o


def read_context(named):
    candidates = [named] if named else [".lahar/context", os.path.expanduser("~/.lahar/context")]
    file = next((f for f in candidates if os.path.isfile(f)), None)
    if file is None:
        if named:
            raise SystemExit(f"no Lahar context at {named}")
        return {}
    return read_properties(file)


def read_properties(file):
    if not os.path.isfile(file):
        raise SystemExit(f"cannot read the registry credentials in {file}")
    values = {}
    # A Java properties file: key=value or key: value, # comments, \ escapes (http\://...).
    with open(file) as f:
        for line in f:
            m = re.match(r"^\s*([^#!\s][^=:\s]*)\s*[=:]\s*(.*?)\s*$", line)
            if m:
                values[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
    return values


def ccompat(url):
    """The registry's Confluent-compatible API, given that or Apicurio's own (what the Lahar context holds)."""
    return re.sub(r"/apis/registry/v3$", "/apis/ccompat/v7", url.rstrip("/"))


def main():
    o = options()
    with open(o.manifest) as f:
        manifest = json.load(f)
    namespace = manifest["metadata"].get("namespace", "default")
    name = manifest["metadata"]["name"]
    key = f"{namespace}/{name}"
    request_id = str(uuid.uuid4())
    registry = Registry(o.registry, o.credentials)

    # Where the answers and statuses end now: ours come after, so read from there.
    consumer = Consumer({"bootstrap.servers": o.bootstrap, "group.id": f"lahar-python-example-{request_id}",
                         "enable.auto.commit": False, "isolation.level": "read_committed"})
    start = []
    for topic in (RESULTS, STATUS):
        for partition in consumer.list_topics(topic, timeout=30).topics[topic].partitions:
            _, high = consumer.get_watermark_offsets(TopicPartition(topic, partition), timeout=30)
            start.append(TopicPartition(topic, partition, high))
    consumer.assign(start)

    # librdkafka's default partitioner hashes keys with CRC32; murmur2 is the Java client's, and a
    # Job's records must share a partition (docs/topics.md, Co-partitioning).
    producer = Producer({"bootstrap.servers": o.bootstrap, "partitioner": "murmur2_random"})
    command = {
        "requestId": request_id,
        "sender": "python-example",
        "namespace": namespace,
        "name": name,
        "time": datetime.datetime.now(datetime.timezone.utc),
        "command": {"io.lahar.schema.SubmitJob": {"manifest": json.dumps(manifest)}},
    }
    producer.produce(COMMANDS, key=key.encode(), value=registry.encode(registry.latest_id(f"{COMMANDS}-value"), command))
    if producer.flush(30) != 0:
        raise RuntimeError(f"the SubmitJob for {key} was not delivered")
    print(f"submitted {key} (request {request_id}) to {COMMANDS}", flush=True)

    phase = None
    deadline = time.monotonic() + o.timeout
    try:
        while time.monotonic() < deadline:
            message = consumer.poll(0.5)
            if message is None:
                continue
            if message.error():
                raise RuntimeError(message.error())
            if message.key() is None or message.key().decode() != key:
                continue
            if message.value() is None:
                if message.topic() == STATUS:
                    print(f"deleted: {key}", flush=True)
                continue
            value = registry.decode(message.value())
            if message.topic() == RESULTS and value["requestId"] == request_id:
                if value["accepted"]:
                    print(f"accepted: {key} ({value['kind']})", flush=True)
                else:
                    print(f"rejected: {key} ({value['kind']})")
                    for v in value["violations"]:
                        print(f"  {v['path'] or '(command)'}: {v['message']}")
                    return 1
            elif message.topic() == STATUS and value["status"]["state"]["phase"] != phase:
                state = value["status"]["state"]
                phase = state["phase"]
                print(f"phase: {phase}" + (f" ({state['reason']})" if state["reason"] else ""), flush=True)
                if phase in FINAL:
                    print(f"final phase: {phase}", flush=True)
                    return FINAL[phase]
        print(f"timed out after {o.timeout:g} s", flush=True)
        return 2
    finally:
        consumer.close()


if __name__ == "__main__":
    sys.exit(main())
