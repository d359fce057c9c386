import CombineExCore
import CombineExTesting
import Foundation
import Testing

@Suite("breakpoint")
struct BreakpointTests {
  @Test("closures that return false let every event through, and see each one")
  func passesEventsThrough() {
    let seen = LockedBox<[String]>([])
    let recorder = [1, 2].publisher.eraseToAnyPublisher().breakpoint(
      receiveSubscription: { _ in
        seen.withLock { $0.append("subscription") }
        return false
      },
      receiveOutput: { value in
        seen.withLock { $0.append("output \(value)") }
        return false
      },
      receiveCompletion: { completion in
        seen.withLock { $0.append("completion \(completion)") }
        return false
      }
    ).record()
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion.isFinished)
    #expect(
      seen.withLock { $0 } == ["subscription", "output 1", "output 2", "completion finished"])
  }

  @Test("without closures the publisher is transparent")
  func noClosures() {
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher().breakpoint().record()
    #expect(recorder.values == [1, 2, 3])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("passes the upstream's failure on when the closure returns false")
  func forwardsFailure() {
    let recorder = Fail<Int, TestError>(error: TestError(1))
      .breakpoint(receiveCompletion: { _ in false }).record()
    #expect(recorder.receivedCompletion == .failure(TestError(1)))
  }

  @Test("an empty upstream finishes")
  func emptyUpstream() {
    let recorder = Empty<Int, Never>().breakpoint(receiveOutput: { _ in true }).record()
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("breakpointOnError lets values and the finish through")
  func breakpointOnErrorFinishes() {
    let recorder = [1, 2].publisher.eraseToAnyPublisher().breakpointOnError().record()
    #expect(recorder.values == [1, 2])
    #expect(recorder.receivedCompletion.isFinished)
  }

  @Test("honours demand: one value per request")
  func honoursDemand() {
    let recorder = [1, 2, 3].publisher.eraseToAnyPublisher().breakpoint(receiveOutput: { _ in false
    })
    .record(initialDemand: .max(1))
    #expect(recorder.values == [1])
    recorder.request(.max(1))
    #expect(recorder.values == [1, 2])
  }

  @Test("demand and cancel go straight to the upstream")
  func demandAndCancelPassThrough() {
    let upstream = ScriptedUpstream<Int, Never>()
    let recorder = upstream.breakpoint().record(initialDemand: .max(2))
    recorder.cancel()
    #expect(upstream.requests == [.max(2)])
    #expect(upstream.cancels == 1)
  }

  @Test("cancel frees the pipeline")
  func cancelFreesPipeline() {
    weak var weakOwner: TestOwner?
    let subject = PassthroughSubject<Int, Never>()
    var cancellable: AnyCancellable?
    do {
      let owner = TestOwner()
      weakOwner = owner
      cancellable = subject.breakpoint(receiveOutput: { owner.values.contains($0) })
        .sink { owner.values.append($0) }
    }
    subject.send(1)
    #expect(weakOwner != nil)
    cancellable?.cancel()
    #expect(weakOwner == nil)
  }

  @Test("a closure that returns true raises SIGTRAP, which stops the process")
  func trueRaisesSIGTRAP() async {
    await #expect(processExitsWith: .signal(SIGTRAP)) {
      _ = Just(1).breakpoint(receiveOutput: { $0 == 1 }).sink { _ in }
    }
  }

  @Test("breakpointOnError raises SIGTRAP on a failure")
  func breakpointOnErrorTraps() async {
    await #expect(processExitsWith: .signal(SIGTRAP)) {
      _ = Fail<Int, TestError>(error: TestError()).breakpointOnError()
        .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
    }
  }
}
