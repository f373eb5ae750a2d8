// The bench's broker is a new JVM each run: for its first minutes HotSpot's JIT compilers (C1, C2) took
// half of its CPU (thread CPU time of `C1/C2 CompilerThread` in /proc, 53% of the broker's during the
// end-to-end and open-loop phases), charged to the documents of the phases that met it and taken from
// the stack under test. A broker in service has long compiled its hot paths: the bench sends traffic
// through it first (produce with acks=all, three consumer groups fetching), then deletes the topic.
import { createRequire } from 'node:module';
import path from 'node:path';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Produces ~1,000 messages of 4 KiB a second for `seconds` to a topic of six partitions that three
 * consumer groups read, then removes it. Resolves when done; a failure only weakens the warm-up.
 */
export async function warmUpBroker({ root, brokers, seconds, say }) {
  if (!(seconds > 0)) return;
  const { Kafka, logLevel } = createRequire(path.join(root, 'package.json'))('kafkajs');
  const kafka = new Kafka({ clientId: 'einvoice-bench-warmup', brokers: [brokers], logLevel: logLevel.NOTHING });
  const topic = `bench-warmup-${process.pid}`;
  const admin = kafka.admin();
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  const consumers = ['a', 'b', 'c'].map((g) => kafka.consumer({ groupId: `${topic}.${g}`, maxWaitTimeInMs: 500 }));
  let received = 0;
  try {
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 6 }], waitForLeaders: true });
    await producer.connect();
    for (const consumer of consumers) {
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await consumer.run({ eachBatch: async ({ batch }) => void (received += batch.messages.length) });
    }
    const value = Buffer.alloc(4096, 'x');
    const until = Date.now() + seconds * 1000;
    let sent = 0;
    for (let n = 0; Date.now() < until; n++) {
      await producer.send({ topic, acks: -1, messages: Array.from({ length: 20 }, (_, i) => ({ key: `k${(n * 20 + i) % 64}`, value })) });
      sent += 20;
      await sleep(20);
    }
    say(`Kafka warmed up: ${sent} messages produced, ${received} consumed by 3 groups in ${seconds} s`);
  } catch (error) {
    say(`Kafka warm-up stopped early: ${error.message}`);
  } finally {
    for (const consumer of consumers) await consumer.disconnect().catch(() => undefined);
    await producer.disconnect().catch(() => undefined);
    await admin.deleteTopics({ topics: [topic] }).catch(() => undefined);
    await admin.disconnect().catch(() => undefined);
  }
}
