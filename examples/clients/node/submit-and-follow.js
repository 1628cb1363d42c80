#!/usr/bin/env node
// Submits a Volcano Job to Lahar from Node, reads the answer to it and follows the Job to a final
// phase: a SubmitJob on lahar.job-commands, its CommandResult on lahar.command-results (found by
// requestId), its JobStatusRecords on lahar.job-status. kafkajs for Kafka, and the registry's
// Confluent-compatible API for the Avro schemas (docs/topics.md, docs/asyncapi.yaml).
//
//   node submit-and-follow.js [--bootstrap HOST:PORT] [--registry URL] [--context FILE] [--timeout SECONDS] JOB.json
//
// Exit status: 0 Completed, 3 Failed or Terminated, 1 rejected (every reason printed), 2 timed out.
'use strict'

const fs = require('fs')
const os = require('os')
const path = require('path')
const crypto = require('crypto')
const { Kafka, Partitioners, logLevel } = require('kafkajs')
const { SchemaRegistry } = require('@kafkajs/confluent-schema-registry')

const COMMANDS = 'lahar.job-commands'
const RESULTS = 'lahar.command-results'
const STATUS = 'lahar.job-status'
const FINAL = { Completed: 0, Failed: 3, Terminated: 3 }

// Each setting from its flag, else its environment variable, else the Lahar context (the file
// bin/start writes, as docs/cli.md says), else the default.
function options(argv) {
  const flags = {}
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (['--bootstrap', '--registry', '--registry-credentials', '--timeout', '--context'].includes(a)) flags[a.slice(2)] = argv[++i]
    else if (!a.startsWith('--') && !flags.manifest) flags.manifest = a
    else throw new Error(`unknown argument ${a}`)
  }
  if (!flags.manifest) {
    throw new Error('usage: submit-and-follow.js [--bootstrap HOST:PORT] [--registry URL] [--registry-credentials FILE] [--context FILE] [--timeout SECONDS] JOB.json')
  }
  const context = readContext(flags.context || process.env.LAHAR_CONTEXT)
  const credentials = flags['registry-credentials'] || process.env.LAHAR_REGISTRY_CREDENTIALS || context['registry.credentials.file']
  return {
    manifest: flags.manifest,
    bootstrap: flags.bootstrap || process.env.LAHAR_BOOTSTRAP || context.bootstrap || '127.0.0.1:9092',
    registry: ccompat(flags.registry || process.env.LAHAR_REGISTRY || context.registry || 'http://127.0.0.1:8080/apis/registry/v3'),
    // HTTP basic auth, as a registry started by bin/start asks of every client.
    registryAuth: credentials ? readProperties(credentials) : undefined,
    timeout: Number(flags.timeout || 120),
  }
}

function readContext(named) {
  const candidates = named ? [named] : ['.lahar/context', path.join(os.homedir(), '.lahar/context')]
  const file = candidates.find(f => fs.existsSync(f))
  if (!file) {
    if (named) throw new Error(`no Lahar context at ${named}`)
    return {}
  }
  return readProperties(file)
}

function readProperties(file) {
  if (!fs.existsSync(file)) throw new Error(`cannot read the registry credentials in ${file}`)
  const values = {}
  // A Java properties file: key=value or key: value, # comments, \ escapes (http\://...).
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = line.match(/^\s*([^#!\s][^=:\s]*)\s*[=:]\s*(.*?)\s*$/)
    if (m) values[m[1]] = m[2].replace(/\\(.)/g, '$1')
  }
  return values
}

// The registry's Confluent-compatible API, given that or Apicurio's own (what the Lahar context holds).
function ccompat(url) {
  return url.replace(/\/+$/, '').replace(/\/apis\/registry\/v3$/, '/apis/ccompat/v7')
}

// The schema Lahar registered for the topic: a client writes with it and never registers its own
// (the registry would then refuse Lahar's, which names its nested records by reference).
async function schemaId(registry, subject) {
  try {
    return await registry.getLatestSchemaId(subject)
  } catch (e) {
    throw new Error(`no schema for ${subject} in the registry (${e.message}): Lahar registers it when it first ` +
      'writes the topic, e.g. with a `lahar submit` or the demo of bin/start')
  }
}

async function main() {
  const o = options(process.argv.slice(2))
  const manifest = JSON.parse(fs.readFileSync(o.manifest, 'utf8'))
  const namespace = manifest.metadata.namespace || 'default'
  const name = manifest.metadata.name
  const key = `${namespace}/${name}`
  const requestId = crypto.randomUUID()

  const registry = new SchemaRegistry(o.registryAuth
    ? { host: o.registry, auth: { username: o.registryAuth.username, password: o.registryAuth.password } }
    : { host: o.registry })
  const kafka = new Kafka({ clientId: 'lahar-node-example', brokers: [o.bootstrap], logLevel: logLevel.WARN })

  // Where the answers and statuses end now: ours come after, so read from there (and never what
  // came before, which may be in a codec kafkajs does not read: see docs/topics.md, Compression).
  const admin = kafka.admin()
  await admin.connect()
  const start = {}
  for (const topic of [RESULTS, STATUS]) start[topic] = await admin.fetchTopicOffsets(topic)
  await admin.disconnect()

  const consumer = kafka.consumer({ groupId: `lahar-node-example-${requestId}` })
  await consumer.connect()
  await consumer.subscribe({ topics: [RESULTS, STATUS] })

  let done
  const finished = new Promise(resolve => { done = resolve })
  const timer = setTimeout(() => {
    console.log(`timed out after ${o.timeout} s`)
    done(2)
  }, o.timeout * 1000)
  let phase
  await consumer.run({
    eachMessage: async ({ topic, message }) => {
      if (message.key === null || message.key.toString() !== key) return
      if (message.value === null) {
        if (topic === STATUS) console.log(`deleted: ${key}`)
        return
      }
      const value = await registry.decode(message.value)
      if (topic === RESULTS && value.requestId === requestId) {
        if (value.accepted) {
          console.log(`accepted: ${key} (${value.kind})`)
        } else {
          console.log(`rejected: ${key} (${value.kind})`)
          for (const v of value.violations) console.log(`  ${v.path || '(command)'}: ${v.message}`)
          done(1)
        }
      } else if (topic === STATUS && value.status.state.phase !== phase) {
        phase = value.status.state.phase
        const reason = value.status.state.reason ? ` (${value.status.state.reason})` : ''
        console.log(`phase: ${phase}${reason}`)
        if (phase in FINAL) {
          console.log(`final phase: ${phase}`)
          done(FINAL[phase])
        }
      }
    },
  })
  for (const topic of [RESULTS, STATUS]) {
    for (const { partition, offset } of start[topic]) consumer.seek({ topic, partition, offset })
  }

  const id = await schemaId(registry, `${COMMANDS}-value`)
  // Avro's JSON shape (docs/topics.md): avsc names the branch of a union of records, as here.
  const command = {
    requestId,
    sender: 'node-example',
    namespace,
    name,
    time: Date.now(),
    command: { 'io.lahar.schema.SubmitJob': { manifest: JSON.stringify(manifest) } },
  }
  // The Java client's partitioner (murmur2 of the key): a Job's records must share a partition.
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner })
  await producer.connect()
  await producer.send({ topic: COMMANDS, messages: [{ key, value: await registry.encode(id, command) }] })
  await producer.disconnect()
  console.log(`submitted ${key} (request ${requestId}) to ${COMMANDS}`)

  const status = await finished
  clearTimeout(timer)
  await consumer.disconnect()
  return status
}

main().then(code => process.exit(code), e => {
  console.error(`error: ${e.message}`)
  process.exit(4)
})
