import CombineExCore
import CombineExNetworking
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Many threads request and cancel the same data task subscriptions at once, while results
/// arrive on other threads. CI runs these under the thread sanitizer (`stress` in the names).
@Suite("URLSession.DataTaskPublisher stress")
struct DataTaskPublisherStressTests {
  /// Spies subscribed without demand, with their subscriptions, for the threads to share.
  final class Subscriptions: @unchecked Sendable {
    // @unchecked Sendable: set once in `init`; subscriptions may be called from any thread
    // (what the tests check), and the spies are thread-safe.
    let items: [(spy: SpySubscriber, subscription: any Subscription)]

    init(_ count: Int, to publisher: URLSession.DataTaskPublisher) throws {
      items = try (0..<count).map { _ in
        let spy = SpySubscriber(initialDemand: .none)
        publisher.subscribe(spy)
        return (spy, try #require(spy.subscription))
      }
    }
  }

  /// Checks the rules for one subscription: at most one value, at most one completion (and
  /// `.finished` only after the value), at most one event after a `cancel()` returned.
  private func checkRules(_ spy: SpySubscriber, index: Int) {
    let (values, completions, late) = spy.state.withLock {
      ($0.values.count, $0.completions, $0.eventsAfterCancel)
    }
    #expect(values <= 1, "subscription \(index): \(values) values")
    #expect(completions.count <= 1, "subscription \(index): \(completions.count) completions")
    if completions.first == .finished {
      #expect(values == 1, "subscription \(index): finished without a value")
    }
    #expect(late <= 1, "subscription \(index): \(late) events after cancel() returned")
  }

  /// Eight threads go through every subscription: the one that `cancels(thread, index)` picks
  /// cancels it, the others request one value.
  private func race(
    _ subscriptions: Subscriptions, cancels: @escaping @Sendable (Int, Int) -> Bool
  ) async {
    await concurrentPerform(8) { thread in
      for (index, (spy, subscription)) in subscriptions.items.enumerated() {
        if cancels(thread, index) {
          spy.cancel(subscription)
        } else {
          subscription.request(.max(1))
        }
      }
    }
  }

  @Test("stress: threads requesting and cancelling requests to a real server break no rule")
  func stressRealServer() async throws {
    let server = try LoopbackHTTPServer()
    defer { server.stop() }
    let publisher = makeSession().dataTaskPublisher(for: server.url("/stress"))
    var subscriptions: Subscriptions? = try Subscriptions(48, to: publisher)
    let released = subscriptions!.items.map { WeakBox($0.subscription as AnyObject) }
    let spies = subscriptions!.items.map(\.spy)

    // Odd subscriptions are cancelled by one of the threads, while the others request.
    await race(subscriptions!) { thread, index in index % 2 == 1 && index % 8 == thread }

    for (index, spy) in spies.enumerated() where index % 2 == 0 {
      #expect(await waitFor(spy.completed), "subscription \(index) never completed")
      #expect(spy.values.map(\.response.httpStatus) == [200], "subscription \(index)")
      #expect(spy.completions == [.finished], "subscription \(index)")
    }
    for (index, spy) in spies.enumerated() { checkRules(spy, index: index) }
    subscriptions = nil
    await expectEventually("every subscription is released") {
      released.allSatisfy { $0.object == nil }
    }
  }

  @Test("stress: threads requesting and cancelling tasks that answer on resume break no rule")
  func stressAnswerOnResume() async throws {
    for round in 0..<20 {
      let session = StubSession.make(answeringOnResume: .success("round \(round)"))
      let publisher = session.dataTaskPublisher(for: URL(string: "http://stub.invalid/s")!)
      let subscriptions = try Subscriptions(32, to: publisher)

      await race(subscriptions) { thread, index in
        index % 8 == thread && (index + round) % 3 == 0
      }

      for (index, (spy, _)) in subscriptions.items.enumerated() {
        checkRules(spy, index: index)
        // Subscriptions nobody cancelled answered when first resumed.
        if (index + round) % 3 != 0 {
          #expect(spy.completions == [.finished], "round \(round), subscription \(index)")
        }
      }
    }
  }
}
