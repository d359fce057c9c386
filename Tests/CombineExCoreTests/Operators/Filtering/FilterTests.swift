import CombineExCore
import CombineExTesting
import Testing

// The upstream is a subject, not `[...].publisher`: `Publishers.Sequence.filter` filters the
// sequence at once and returns another `Publishers.Sequence`, so it would not exercise
// `Publishers.Filter` at all.
@Suite("filter")
struct FilterTests {
  @Test("republishes the elements that match and finishes with the upstream")
  func republishesMatches() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.filter { $0.isMultiple(of: 2) }.record()
    for value in 1...6 { subject.send(value) }
    subject.send(completion: .finished)
    #expect(recorder.values == [2, 4, 6])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("passes the upstream's failure on, after the values before it")
  func upstreamFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.filter { $0 > 0 }.record()
    subject.send(1)
    subject.send(-1)
    subject.send(completion: .failure(TestError(2)))
    subject.send(3)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion == .failure(TestError(2)))
    #expect(recorder.completionCount == 1)
  }

  @Test("an upstream that only sends rejected elements finishes without values")
  func allRejected() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.filter { _ in false }.record()
    subject.send(1)
    subject.send(2)
    subject.send(completion: .finished)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("an empty upstream finishes without values and without calling the predicate")
  func emptyUpstream() {
    let subject = PassthroughSubject<Int, Never>()
    var calls = 0
    let recorder = subject.filter { _ in
      calls += 1
      return true
    }.record()
    subject.send(completion: .finished)
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
    #expect(calls == 0)
  }

  @Test("a rejected element hands its unit of demand back, so the next match still arrives")
  func rejectedGivesDemandBack() {
    let subject = PassthroughSubject<Int, Never>()
    let recorder = subject.filter { $0 > 0 }.record(initialDemand: .max(1))
    subject.send(-1)
    subject.send(-2)
    subject.send(5)
    subject.send(6)  // dropped by the subject: the one requested value has arrived
    #expect(recorder.values == [5])
    recorder.request(.max(1))
    subject.send(7)
    #expect(recorder.values == [5, 7])
  }

  @Test("a rejected element returns .max(1) upstream; a passing one returns the subscriber's")
  func returnedDemand() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = upstream.filter { $0 > 0 }.record(initialDemand: .max(1))
    #expect(upstream.requests == [.max(1)])
    #expect(upstream.send(-1) == .max(1))
    #expect(upstream.send(1) == .none)
    #expect(recorder.values == [1])
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.filter { _ in true } }
  }

  @Test("cancel releases what the predicate captured")
  func cancelReleasesPredicate() {
    let subject = PassthroughSubject<Int, Never>()
    weak var weakOwner: TestOwner?
    let cancellable: AnyCancellable
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.filter { value in
        owner.values.append(value)
        return true
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
    let cancellable = subject.filter { $0 != 0 }.sink { value in
      log.append("start \(value)")
      if value == 1 {
        subject.send(0)  // rejected
        subject.send(2)
      }
      log.append("end \(value)")
    }
    subject.send(1)
    subject.send(3)
    #expect(log == ["start 1", "start 2", "end 2", "end 1", "start 3", "end 3"])
    withExtendedLifetime(cancellable) {}
  }

  @Test("filter(p).filter(q) is one Publishers.Filter testing q only where p holds")
  func fusion() {
    let subject = PassthroughSubject<Int, Never>()
    var tested: [Int] = []
    let fused = subject.filter { $0.isMultiple(of: 2) }.filter { value in
      tested.append(value)
      return value.isMultiple(of: 3)
    }
    #expect(type(of: fused) == Publishers.Filter<PassthroughSubject<Int, Never>>.self)
    let recorder = fused.record()
    for value in 1...12 { subject.send(value) }
    #expect(recorder.values == [6, 12])
    #expect(tested == [2, 4, 6, 8, 10, 12])
  }
}
