import CombineExCore
import CombineExTesting
import Testing

@Suite("tryFilter")
struct TryFilterTests {
  @Test("republishes the elements that match and finishes with the upstream")
  func republishesMatches() {
    let recorder = [1, 2, 3, 4].publisher.eraseToAnyPublisher().tryFilter { $0.isMultiple(of: 2) }
      .record()
    #expect(recorder.values == [2, 4])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a thrown error fails the publisher and cancels the upstream")
  func throwingCancelsUpstream() {
    let subject = PassthroughSubject<Int, Never>()
    var cancelled = false
    let recorder =
      subject
      .handleCancelForTest { cancelled = true }
      .tryFilter { value in
        if value == 0 { throw TestError(0) }
        return true
      }
      .record()
    subject.send(1)
    subject.send(0)
    subject.send(2)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(0))
    #expect(recorder.completionCount == 1)
    #expect(cancelled)
  }

  @Test("passes the upstream's failure on")
  func upstreamFailure() {
    let subject = PassthroughSubject<Int, TestError>()
    let recorder = subject.tryFilter { _ in true }.record()
    subject.send(1)
    subject.send(completion: .failure(TestError(5)))
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(5))
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().tryFilter { _ in true }.record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a rejected element gives its unit of demand back to the upstream")
  func rejectedGivesDemandBack() {
    let upstream = ManualUpstream<Int, Never>()
    let recorder = upstream.tryFilter { $0 > 0 }.record(initialDemand: .max(1))
    #expect(upstream.requests == [.max(1)])
    #expect(upstream.send(-1) == .max(1))
    #expect(upstream.send(1) == .none)
    #expect(recorder.values == [1])
  }

  @Test("honours demand: .none at first, then one value per request")
  func honoursDemand() {
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher().tryFilter { _ in true }.record(
      initialDemand: .none)
    #expect(recorder.values.isEmpty)
    recorder.request(.max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
  }

  // The fusions use a subject upstream with inferred result types: on `[...].publisher`,
  // `filter` is applied to the sequence at once, so no `Publishers.Filter` would be there to
  // fuse.
  @Test("filter.tryFilter fuses into one TryFilter")
  func filterThenTryFilterFusion() {
    let subject = PassthroughSubject<Int, Never>()
    let fused = subject.filter { $0.isMultiple(of: 2) }.tryFilter { $0.isMultiple(of: 3) }
    #expect(type(of: fused) == Publishers.TryFilter<PassthroughSubject<Int, Never>>.self)
    let recorder = fused.record()
    for value in 1...12 { subject.send(value) }
    #expect(recorder.values == [6, 12])
  }

  @Test("tryFilter.filter fuses into one TryFilter")
  func tryFilterThenFilterFusion() {
    let subject = PassthroughSubject<Int, Never>()
    let fused = subject.tryFilter { $0.isMultiple(of: 2) }.filter { $0.isMultiple(of: 3) }
    #expect(type(of: fused) == Publishers.TryFilter<PassthroughSubject<Int, Never>>.self)
    let recorder = fused.record()
    for value in 1...12 { subject.send(value) }
    #expect(recorder.values == [6, 12])
  }

  @Test("tryFilter.tryFilter fuses into one TryFilter, and the second closure's error fails it")
  func tryFilterThenTryFilterFusion() {
    let subject = PassthroughSubject<Int, Never>()
    let fused = subject.tryFilter { $0.isMultiple(of: 2) }.tryFilter { value in
      if value > 6 { throw TestError(value) }
      return value.isMultiple(of: 3)
    }
    #expect(type(of: fused) == Publishers.TryFilter<PassthroughSubject<Int, Never>>.self)
    let recorder = fused.record()
    for value in 1...12 { subject.send(value) }
    #expect(recorder.values == [6])
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(8))
  }

  @Test("the fused second predicate is not called for elements the first rejects")
  func fusionShortCircuits() {
    let subject = PassthroughSubject<Int, Never>()
    var tested: [Int] = []
    let recorder =
      subject
      .filter { $0.isMultiple(of: 2) }
      .tryFilter { value in
        tested.append(value)
        return true
      }
      .record()
    for value in 1...4 { subject.send(value) }
    #expect(recorder.values == [2, 4])
    #expect(tested == [2, 4])
  }

  @Test("cancel reaches the upstream, stops delivery and frees the pipeline")
  func cancellation() {
    expectCancellationRules { $0.tryFilter { _ in true } }
  }
}
