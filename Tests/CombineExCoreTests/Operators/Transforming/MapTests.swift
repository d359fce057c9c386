import CombineExCore
import CombineExTesting
import Testing

// The upstream is a subject, not `[...].publisher`: `Publishers.Sequence.map` applies the
// closure to the sequence at once and returns another `Publishers.Sequence`, so it would not
// exercise `Publishers.Map` at all.
@Suite("map")
struct MapTests {
  @Test("transforms every value and finishes with the upstream")
  func transformsValues() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.map { "#\($0)" }.record()
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    #expect(recorder.values == ["#1", "#2"])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("passes the upstream's failure on, after the values before it")
  func upstreamFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.map { $0 * 10 }.record()
    subject.send(1)
    subject.send(completion: .failure(TestError(3)))
    subject.send(2)
    #expect(recorder.values == [10])
    #expect(recorder.receivedCompletion == .failure(TestError(3)))
    #expect(recorder.completionCount == 1)
  }

  @Test("an empty upstream finishes without values and without calling the transform")
  func emptyUpstream() {
    let subject = PassthroughSubject<Int, Never>()
    var calls = 0
    let recorder = subject.map { value -> Int in
      calls += 1
      return value
    }.record()
    subject.send(completion: .finished)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
    #expect(calls == 0)
  }

  @Test("an already-finished upstream finishes at once")
  func emptyPublisher() {
    let recorder = Empty<Int, Never>().map { $0 + 1 }.record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("demand passes straight through: no more values than requested")
  func honoursDemand() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.map { $0 * 2 }.record(initialDemand: .max(1))
    subject.send(1)
    subject.send(2)  // dropped by the subject: no demand left
    recorder.request(.max(1))
    subject.send(3)
    #expect(recorder.values == [2, 6])
  }

  @Test("the demand the subscriber returns reaches the upstream unchanged")
  func returnedDemand() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = upstream.map { $0 }.record(
      initialDemand: .max(2), demandAfterEachValue: .max(3))
    #expect(upstream.requests == [.max(2)])
    #expect(upstream.send(1) == .max(3))
    #expect(recorder.values == [1])
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.map { $0 + 1 } }
  }

  @Test("cancel releases what the transform captured")
  func cancelReleasesTransform() {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakOwner: TestOwner?
    let cancellable: AnyCancellable
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.map { value -> Int in
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
    let subject = PassthroughSubject<Int, Never>()
    var log: [String] = []
    let cancellable = subject.map { $0 * 10 }.sink { value in
      log.append("start \(value)")
      if value == 10 { subject.send(2) }
      log.append("end \(value)")
    }
    subject.send(1)
    subject.send(3)
    #expect(log == ["start 10", "start 20", "end 20", "end 10", "start 30", "end 30"])
    withExtendedLifetime(cancellable) {}
  }

  @Test("a cancel from inside the sink stops delivery at once")
  func reentrantCancel() {
    let subject = PassthroughSubject<Int, Never>()
    var received: [Int] = []
    var cancellable: AnyCancellable?
    cancellable = subject.map { $0 + 100 }.sink { value in
      received.append(value)
      cancellable?.cancel()
    }
    subject.send(1)
    subject.send(2)
    #expect(received == [101])
  }

  @Test("map(f).map(g) is one Publishers.Map that applies g after f")
  func fusion() {
    let subject = PassthroughSubject<Int, Never>()
    let fused = subject.map { $0 + 1 }.map { $0 * 2 }
    #expect(type(of: fused) == Publishers.Map<PassthroughSubject<Int, Never>, Int>.self)
    let recorder = fused.record()
    subject.send(1)
    subject.send(4)
    #expect(recorder.values == [4, 10])
  }
}
