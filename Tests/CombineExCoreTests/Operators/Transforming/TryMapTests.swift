import CombineExCore
import CombineExTesting
import Testing

@Suite("tryMap")
struct TryMapTests {
  @Test("transforms every value and finishes with the upstream")
  func transformsValues() {
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher().tryMap { $0 * 2 }.record()
    #expect(recorder.values == [2, 4, 6])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("a thrown error fails the publisher and cancels the upstream")
  func throwingCancelsUpstream() {
    let subject = PassthroughSubject<Int, Never>()
    var cancelled = false
    let recorder =
      subject
      .handleCancelForTest { cancelled = true }
      .tryMap { value -> Int in
        if value == 2 { throw TestError(2) }
        return value
      }
      .record()
    subject.send(1)
    subject.send(2)
    subject.send(3)
    #expect(recorder.values == [1])
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(2))
    #expect(recorder.completionCount == 1)
    #expect(cancelled)
  }

  @Test("passes the upstream's failure on")
  func forwardsUpstreamFailure() {
    let recorder = Fail<Int, TestError>(error: TestError(7)).tryMap { $0 }.record()
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(7))
  }

  @Test("an empty upstream finishes without values")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().tryMap { $0 }.record()
    #expect(recorder.values.isEmpty)
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("honours demand: one value per request")
  func honoursDemand() {
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher().tryMap { $0 }.record(
      initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
  }

  // The fusions use a subject upstream with inferred result types: on `[...].publisher`,
  // `map` is applied to the sequence at once, so no `Publishers.Map` would be there to fuse.
  @Test("map.tryMap fuses into one TryMap that applies the throwing closure after the map")
  func mapThenTryMapFusion() {
    let subject = PassthroughSubject<Int, Never>()
    let fused = subject.map { $0 + 1 }.tryMap { value -> String in
      if value > 3 { throw TestError(value) }
      return "\(value)"
    }
    #expect(type(of: fused) == Publishers.TryMap<PassthroughSubject<Int, Never>, String>.self)
    let recorder = fused.record()
    subject.send(1)
    subject.send(3)
    subject.send(5)
    #expect(recorder.values == ["2"])
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(4))
  }

  @Test("tryMap.map fuses into one TryMap")
  func tryMapThenMapFusion() {
    let subject = PassthroughSubject<Int, Never>()
    let fused = subject.tryMap { $0 + 1 }.map { $0 * 10 }
    #expect(type(of: fused) == Publishers.TryMap<PassthroughSubject<Int, Never>, Int>.self)
    let recorder = fused.record()
    subject.send(1)
    subject.send(2)
    #expect(recorder.values == [20, 30])
  }

  @Test("tryMap.tryMap fuses into one TryMap, and either closure's error fails it")
  func tryMapThenTryMapFusion() {
    let subject = PassthroughSubject<Int, Never>()
    let fused = subject.tryMap { value -> Int in
      if value == 0 { throw TestError(0) }
      return value * 2
    }.tryMap { value -> Int in
      if value > 4 { throw TestError(value) }
      return value + 1
    }
    #expect(type(of: fused) == Publishers.TryMap<PassthroughSubject<Int, Never>, Int>.self)
    let first = fused.record()
    subject.send(1)
    subject.send(2)
    subject.send(3)
    #expect(first.values == [3, 5])
    #expect(first.receivedCompletion?.failure as? TestError == TestError(6))

    let second = PassthroughSubject<Int, Never>()
    let recorder = second.tryMap { value -> Int in
      if value == 0 { throw TestError(0) }
      return value
    }.tryMap { $0 }.record()
    second.send(0)
    #expect(recorder.receivedCompletion?.failure as? TestError == TestError(0))
  }

  @Test("cancel releases the downstream")
  func cancelReleases() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.tryMap { $0 }.sink(
        receiveCompletion: { _ in }, receiveValue: { owner.values.append($0) })
    }
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }
}
