// This directory is compiled twice: as CombineExWorkloads, against CombineEx, and as
// OpenCombineWorkloads (Sources/OpenCombineWorkloads is a symbolic link to it), against
// OpenCombine, with BENCH_OPENCOMBINE defined. Every workload is therefore the same source code
// in both libraries. Adding a workload: write a function `(Bench) -> Void` that sets up, calls
// `bench.measure(units:)` once around the measured work, and tears down; list it below.
import BenchmarkKit

#if BENCH_OPENCOMBINE
  import OpenCombine
#else
  import CombineEx
#endif

/// Every workload this library's build runs, in report order.
public func allWorkloads() -> [Workload] {
  var workloads = [
    Workload(
      "a", "raw loop: map, filter, sum (no library)", unit: "element", body: rawLoop),
    Workload(
      "b1", "(0..<N).publisher.map.filter.sink", unit: "element",
      targets: [
        .fasterThanOpenCombine(5), .withinFactorOf("a", 10), .withinFactorOf("a", 4.5),
        .noAllocations,
      ],
      note: "(0..<N).publisher.map(f).filter(g) is \(sequencePipelineType())",
      body: sequenceMapFilterSink),
    Workload(
      "b2", "(0..<N).publisher.sink", unit: "element",
      targets: [.fasterThanOpenCombine(5), .noAllocations], body: sequenceSink),
    Workload(
      "c1", "PassthroughSubject.map.filter.sink, send", unit: "element",
      targets: [.fasterThanOpenCombine(5), .noAllocations], body: subjectMapFilterSink),
    Workload(
      "c2", "PassthroughSubject.sink, send", unit: "element",
      targets: [.fasterThanOpenCombine(5), .noAllocations], body: subjectSink),
    Workload(
      "d", "CurrentValueSubject, 10 sinks, send", unit: "send (x10)",
      targets: [.fasterThanOpenCombine(5), .noAllocations], body: currentValueSubjectTenSinks),
    Workload(
      "e1", "Just(i).map.sink, cancel", unit: "subscription",
      targets: [.fasterThanOpenCombine(3)],
      note: "Just(i).map(f) is \(justPipelineType())", body: justMapSinkCancel),
    Workload(
      "e2", "subject.map.sink, one send, cancel", unit: "subscription",
      targets: [.fasterThanOpenCombine(3)], body: subjectMapSinkSendCancel),
    Workload(
      "f", "flatMap: N/1000 sequences of 1000, sink", unit: "element",
      targets: [.fasterThanOpenCombine(3)], body: flatMapSequences),
    Workload(
      "g1", "merge of 8 subjects, sink; send round-robin", unit: "element",
      targets: [.fasterThanOpenCombine(3), .noAllocations], note: mergeNote,
      body: mergeEightSubjects),
    Workload(
      "g2", "combineLatest of 2 subjects, sink", unit: "element",
      targets: [.fasterThanOpenCombine(3), .noAllocations], note: combineLatestNote,
      body: combineLatestTwoSubjects),
    Workload(
      "g3", "zip of 2 subjects, sink", unit: "element",
      targets: [.fasterThanOpenCombine(3), .noAllocations], body: zipTwoSubjects),
    Workload(
      "h1", "subject.receive(on: ImmediateScheduler).sink", unit: "element",
      targets: [.fasterThanOpenCombine(3), .noAllocations], body: receiveOnImmediateScheduler),
    Workload(
      "a2", "raw hop: serial queue, async per value (no library)", unit: "element",
      metric: .wallTime, body: rawSerialQueueHop),
    Workload(
      "h2", "subject.receive(on: serial queue).sink", unit: "element",
      metric: .wallTime, targets: [.fasterThanOpenCombine(3), .withinFactorOf("a2", 1.2)],
      body: receiveOnSerialQueue),
    Workload(
      "i1", "K live subject.map.sink: memory", unit: "subscription", metric: .bytes,
      targets: [.atMostBytes(200)], body: liveSubscriptionBytes),
    Workload(
      "i2", "K live subject.map.sink: fan-out", unit: "delivery",
      targets: [.noAllocations], body: fanOut),
    Workload(
      "i3", "K live subject.map.sink: cancel each", unit: "subscription", body: cancelEach),
    Workload(
      "i4", "K live subject.sink: memory", unit: "subscription", metric: .bytes,
      targets: [.atMostBytes(200)], body: liveSinkBytes),
    Workload(
      "i5", "K live CurrentValueSubject.map.sink: memory", unit: "subscription",
      metric: .bytes, targets: [.atMostBytes(200)], body: liveCurrentValueMapSinkBytes),
    Workload(
      "i6", "K live CurrentValueSubject.sink: memory", unit: "subscription", metric: .bytes,
      targets: [.atMostBytes(200)], body: liveCurrentValueSinkBytes),
  ]
  workloads += hopWorkloads()
  workloads += propertyWorkloads()
  workloads += storeWorkloads()
  workloads += aggregateWorkloads()
  return workloads
}
