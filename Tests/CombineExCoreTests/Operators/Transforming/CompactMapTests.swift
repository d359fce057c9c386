import CombineExCore
import CombineExTesting
import Testing

// The upstream is a subject, not `[...].publisher`: `Publishers.Sequence.compactMap` maps the
// sequence at once and returns another `Publishers.Sequence`, so it would not exercise
// `Publishers.CompactMap` at all.
@Suite("compactMap")
struct CompactMapTests {
  @Test("publishes the non-nil results and finishes with the upstream")
  func publishesNonNilResults() {
    let subject = PassthroughSubject<String, Never>()
    let recorder = subject.compactMap { Int($0) }.record()
    subject.send("1")
    subject.send("x")
    subject.send("3")
    subject.send(completion: .finished)
    #expect(recorder.values == [1, 3])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("passes the upstream's failure on, after the values before it")
  func upstreamFailure() {
    let subject = PassthroughSubject<String, TestError>()
    let recorder = subject.compactMap { Int($0) }.record()
    subject.send("1")
    subject.send(completion: .failure(TestError(9)))
    subject.send("2")
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .failure(TestError(9)))
    #expect(recorder.completionCount == 1)
  }

  @Test("an empty upstream finishes without values and without calling the transform")
  func emptyUpstream() {
    let subject = PassthroughSubject<Int, Never>()
    var calls = 0
    let recorder = subject.compactMap { value -> Int? in
      calls += 1
      return value
    }.record()
    subject.send(completion: .finished)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
    #expect(calls == 0)
  }

  @Test("a nil result hands its unit of demand back, so the next value still arrives")
  func nilGivesDemandBack() {
    let subject = PassthroughSubject<String, Never>()
    let recorder = subject.compactMap { Int($0) }.record(initialDemand: .max(1))
    subject.send("x")
    subject.send("y")
    subject.send("5")
    subject.send("6")  // dropped by the subject: the one requested value has arrived
    #expect(recorder.values == [5])
    recorder.request(.max(1))
    subject.send("7")
    #expect(recorder.values == [5, 7])
  }

  @Test("a nil result returns .max(1) upstream; a value returns the subscriber's demand")
  func returnedDemand() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = upstream.compactMap { $0 > 0 ? $0 : nil }.record(
      initialDemand: .max(1), demandAfterEachValue: .max(2))
    #expect(upstream.requests == [.max(1)])
    #expect(upstream.send(0) == .max(1))
    #expect(upstream.send(4) == .max(2))
    #expect(recorder.values == [4])
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.compactMap { $0 } }
  }

  @Test("cancel releases what the transform captured")
  func cancelReleasesTransform() {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakOwner: TestOwner?
    let cancellable: AnyCancellable
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.compactMap { value -> Int? in
        owner.values.append(value)
        return value
      }.sink { _ in }
    }
    subject.send(1)
    #expect(weakOwner?.values == [1])
    cancellable.cancel()
    #expect(weakOwner == nil)
    withExtendedLifetime(cancellable) {}
  }

  @Test("a value sent to the subject from inside the sink is delivered at once, nested")
  func reentrantSend() {
    let subject = PassthroughSubject<String, Never>()
    var log: [String] = []
    let cancellable = subject.compactMap { Int($0) }.sink { value in
      log.append("start \(value)")
      if value == 1 {
        subject.send("x")  // dropped: not a number
        subject.send("2")
      }
      log.append("end \(value)")
    }
    subject.send("1")
    subject.send("3")
    #expect(log == ["start 1", "start 2", "end 2", "end 1", "start 3", "end 3"])
    withExtendedLifetime(cancellable) {}
  }

  @Test("compactMap(f).compactMap(g) is one Publishers.CompactMap, and g skips f's nils")
  func compactMapFusion() {
    let subject = PassthroughSubject<String, Never>()
    var transformed: [Int] = []
    let fused = subject.compactMap { Int($0) }.compactMap { value -> Int? in
      transformed.append(value)
      return value > 1 ? value * 10 : nil
    }
    #expect(type(of: fused) == Publishers.CompactMap<PassthroughSubject<String, Never>, Int>.self)
    let recorder = fused.record()
    for text in ["1", "x", "2", "3"] { subject.send(text) }
    #expect(recorder.values == [20, 30])
    #expect(transformed == [1, 2, 3])
  }

  @Test("compactMap(f).map(g) is one Publishers.CompactMap")
  func mapFusion() {
    let subject = PassthroughSubject<String, Never>()
    let fused = subject.compactMap { Int($0) }.map { "#\($0)" }
    #expect(
      type(of: fused) == Publishers.CompactMap<PassthroughSubject<String, Never>, String>.self)
    let recorder = fused.record()
    for text in ["1", "x", "3"] { subject.send(text) }
    #expect(recorder.values == ["#1", "#3"])
  }
}
