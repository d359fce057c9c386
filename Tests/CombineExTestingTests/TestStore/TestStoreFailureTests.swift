import CombineExStore
import CombineExTesting
import Foundation
import Testing

// Each failure path of TestStore, checked through the issues it records: their message, and the
// line they are reported at.

@Suite("TestStore failures, exhaustive")
struct TestStoreFailureTests {
  @Test("send records an issue with a diff when the state does not match the expectation")
  func sendWrongState() {
    let store = makeFeatureStore()
    var line = 0
    let recorded = issues {
      line = #line + 1
      store.send(FeatureAction.increment) { $0.count = 2 }
    }
    #expect(recorded.count == 1)
    #expect(recorded.first?.sourceLocation?.line == line)
    #expect(recorded.first?.sourceLocation?.fileID == #fileID)
    let message = recorded.first.map(text(of:)) ?? ""
    #expect(message.contains("does not match the expectation"))
    #expect(message.contains("FeatureAction.increment"))
    #expect(message.contains("−   - count: 2"))
    #expect(message.contains("+   - count: 1"))
  }

  @Test("send without a closure records an issue when the state changes")
  func sendUnassertedChange() {
    let store = makeFeatureStore()
    var line = 0
    let recorded = issues {
      line = #line + 1
      store.send(FeatureAction.increment)
    }
    #expect(recorded.count == 1)
    #expect(recorded.first?.sourceLocation?.line == line)
    #expect(recorded.first.map(text(of:))?.contains("no change was asserted") == true)
  }

  @Test("send with a closure records an issue when the state does not change")
  func sendExpectedChangeMissing() {
    let store = makeFeatureStore()
    let recorded = issues {
      store.send(FeatureAction.noop) { $0.count = 0 }
    }
    #expect(recorded.count == 1)
    #expect(
      recorded.first.map(text(of:))?.contains("Expected the state to change after") == true)
  }

  @Test("a state assertion that throws records an issue")
  func assertionThrows() {
    struct Broken: Error {}
    let store = makeFeatureStore()
    let recorded = issues {
      store.send(FeatureAction.increment) { _ in throw Broken() }
    }
    #expect(recorded.count == 1)
    #expect(recorded.first.map(text(of:))?.contains("threw an error: Broken()") == true)
  }

  @Test("a send while received actions are unasserted records an issue listing them")
  func sendWithUnassertedReceived() {
    let store = TestStore(
      reducer: featureReducer, state: Feature(count: 9),
      middlewares: [featureEffects(scheduler: DispatchQueue.test).asMiddleware()])
    store.send(FeatureAction.increment) { $0.count = 10 }
    var line = 0
    let recorded = issues {
      line = #line + 1
      store.send(FeatureAction.noop)
    }
    #expect(recorded.count == 1)
    #expect(recorded.first?.sourceLocation?.line == line)
    let message = recorded.first.map(text(of:)) ?? ""
    #expect(
      message.contains("1 received action must be asserted before sending FeatureAction.noop"))
    #expect(message.contains("FeatureAction.factLoaded(\"ten!\")"))
  }

  @Test("receive records an issue when no action was received")
  func receiveNothing() {
    let store = makeFeatureStore()
    var line = 0
    let recorded = issues {
      line = #line + 1
      store.receive(FeatureAction.tick)
    }
    #expect(recorded.count == 1)
    #expect(recorded.first?.sourceLocation?.line == line)
    #expect(
      recorded.first.map(text(of:))?.contains(
        "Expected to receive FeatureAction.tick, but no action was received") == true)
  }

  @Test("receive records an issue naming the action received instead")
  func receiveOtherAction() {
    let store = TestStore(
      reducer: featureReducer, state: Feature(count: 9),
      middlewares: [featureEffects(scheduler: DispatchQueue.test).asMiddleware()])
    store.send(FeatureAction.increment) { $0.count = 10 }
    let recorded = issues {
      store.receive(FeatureAction.tick)
    }
    #expect(recorded.count == 1)
    #expect(
      recorded.first.map(text(of:))?.contains(
        "but received FeatureAction.factLoaded(\"ten!\")") == true)
  }

  @Test("receive by type records an issue when the next action has another type")
  func receiveOtherType() {
    let store = TestStore(
      reducer: featureReducer, state: Feature(count: 9),
      middlewares: [featureEffects(scheduler: DispatchQueue.test).asMiddleware()])
    store.send(FeatureAction.increment) { $0.count = 10 }
    let recorded = issues {
      store.receive(Ping.self)
    }
    #expect(recorded.count == 1)
    #expect(recorded.first.map(text(of:))?.contains("an action of type Ping") == true)
  }

  @Test("receive records an issue when the received action's state change is not the expected one")
  func receiveWrongState() {
    let store = TestStore(
      reducer: featureReducer, state: Feature(count: 9),
      middlewares: [featureEffects(scheduler: DispatchQueue.test).asMiddleware()])
    store.send(FeatureAction.increment) { $0.count = 10 }
    let recorded = issues {
      store.receive(FeatureAction.factLoaded("ten!")) { $0.fact = "eleven" }
    }
    #expect(recorded.count == 1)
    let message = recorded.first.map(text(of:)) ?? ""
    #expect(message.contains("The state after FeatureAction.factLoaded(\"ten!\") does not match"))
    #expect(message.contains("eleven"))
  }

  @Test("receive without a closure records an issue when the received action changed the state")
  func receiveUnassertedChange() {
    let store = TestStore(
      reducer: featureReducer, state: Feature(count: 9),
      middlewares: [featureEffects(scheduler: DispatchQueue.test).asMiddleware()])
    store.send(FeatureAction.increment) { $0.count = 10 }
    let recorded = issues {
      store.receive(FeatureAction.factLoaded("ten!"))
    }
    #expect(recorded.count == 1)
    #expect(recorded.first.map(text(of:))?.contains("no change was asserted") == true)
  }

  @Test("finish records an issue for received actions never asserted")
  func finishWithUnassertedReceived() {
    let store = TestStore(
      reducer: featureReducer, state: Feature(count: 9),
      middlewares: [featureEffects(scheduler: DispatchQueue.test).asMiddleware()])
    store.send(FeatureAction.increment) { $0.count = 10 }
    var line = 0
    let recorded = issues {
      line = #line + 1
      store.finish()
    }
    #expect(recorded.count == 1)
    #expect(recorded.first?.sourceLocation?.line == line)
    #expect(
      recorded.first.map(text(of:))?.contains(
        "1 received action was not asserted by the end of the test") == true)
  }

  @Test("finish reports a running effect at the send that started it, naming its action")
  func finishWithRunningEffect() {
    let scheduler = DispatchQueue.test
    let store = makeFeatureStore(scheduler: scheduler)
    let sendLine = #line + 1
    store.send(FeatureAction.startTimer)
    let recorded = issues {
      store.finish()
    }
    #expect(recorded.count == 1)
    #expect(recorded.first?.sourceLocation?.line == sendLine)
    let message = recorded.first.map(text(of:)) ?? ""
    #expect(message.contains("An effect is still running at the end of the test"))
    #expect(message.contains("EffectMiddleware"))
    #expect(message.contains("started by the sent action FeatureAction.startTimer"))
    #expect(message.contains("TestStoreFailureTests.swift:\(sendLine)"))
  }

  @Test("an effect started by a received action names it and the send that caused it")
  func finishWithEffectOfReceivedAction() {
    let forwarding: Middleware<Feature> = { dispatch, _, next in
      { action in
        next(action)
        if case .noop? = action as? FeatureAction { dispatch(FeatureAction.never) }
      }
    }
    let store = makeFeatureStore(middlewares: [forwarding])
    let sendLine = #line + 1
    store.send(FeatureAction.noop)
    store.receive(FeatureAction.never)
    let recorded = issues {
      store.finish()
    }
    #expect(recorded.count == 1)
    #expect(recorded.first?.sourceLocation?.line == sendLine)
    #expect(
      recorded.first.map(text(of:))?.contains(
        "started by the received action FeatureAction.never (caused by sending "
          + "FeatureAction.noop at TestStoreFailureTests.swift:\(sendLine))") == true)
  }

  @Test("each running effect is reported, and a cancelled one is not")
  func finishWithSeveralEffects() {
    let scheduler = DispatchQueue.test
    let store = makeFeatureStore(scheduler: scheduler)
    store.send(FeatureAction.startTimer)
    store.send(FeatureAction.stopTimer)
    store.send(FeatureAction.never)
    store.send(FeatureAction.factButtonTapped) { $0.isLoading = true }
    let recorded = issues {
      store.finish()
    }
    let messages = recorded.map(text(of:))
    #expect(messages.count == 2)
    #expect(messages.contains { $0.contains("the sent action FeatureAction.never") })
    #expect(messages.contains { $0.contains("the sent action FeatureAction.factButtonTapped") })
    #expect(!messages.contains { $0.contains("startTimer") })
  }

  @Test("a test store freed without finish runs the end checks at the line that created it")
  func endOfLifeChecks() {
    var line = 0
    let recorded = issues {
      line = #line + 1
      let store = makeFeatureStore()
      store.send(FeatureAction.never)
    }
    #expect(recorded.count == 1)
    // The running effect is reported at its send, the line after the creation.
    #expect(recorded.first?.sourceLocation?.line == line + 1)
    #expect(recorded.first.map(text(of:))?.contains("still running") == true)
  }

  @Test("unasserted received actions of a freed test store are reported where it was created")
  func endOfLifeUnassertedActions() {
    var line = 0
    let recorded = issues {
      line = #line + 1
      let store = TestStore(
        reducer: featureReducer, state: Feature(count: 9),
        middlewares: [featureEffects(scheduler: DispatchQueue.test).asMiddleware()])
      store.send(FeatureAction.increment) { $0.count = 10 }
    }
    #expect(recorded.count == 1)
    #expect(recorded.first?.sourceLocation?.line == line)
    #expect(recorded.first.map(text(of:))?.contains("was not asserted") == true)
  }

  @Test("receive with a timeout records an issue when the action never arrives")
  func asyncReceiveTimesOut() async {
    let store = makeFeatureStore()
    store.send(FeatureAction.never)
    let recorded = await asyncIssues {
      await store.receive(FeatureAction.tick, timeout: .milliseconds(20))
    }
    #expect(recorded.count == 1)
    #expect(
      recorded.first.map(text(of:))?.contains("no action was received within 0.02 seconds")
        == true)
    store.skipInFlightEffects()
  }

  @Test("finish with a timeout records an issue when the effect does not end in time")
  func asyncFinishTimesOut() async {
    let store = makeFeatureStore()
    store.send(FeatureAction.never)
    let recorded = await asyncIssues {
      await store.finish(timeout: .milliseconds(20))
    }
    #expect(recorded.count == 1)
    #expect(recorded.first.map(text(of:))?.contains("still running") == true)
  }
}

@Suite("TestStore failures, non-exhaustive")
struct NonExhaustiveTestStoreFailureTests {
  @Test("a partial assertion that contradicts the actual state records an issue")
  func wrongPartialAssertion() {
    let store = makeFeatureStore(exhaustivity: .off)
    let recorded = issues {
      store.send(FeatureAction.increment) { $0.count = 5 }
    }
    #expect(recorded.count == 1)
    #expect(recorded.first.map(text(of:))?.contains("does not match the expectation") == true)
  }

  @Test("receive records an issue listing the received actions when none matches")
  func receiveNoMatch() {
    let store = TestStore(
      reducer: featureReducer, state: Feature(count: 9),
      middlewares: [featureEffects(scheduler: DispatchQueue.test).asMiddleware()],
      exhaustivity: .off)
    store.send(FeatureAction.increment)
    let recorded = issues {
      store.receive(FeatureAction.tick)
    }
    #expect(recorded.count == 1)
    let message = recorded.first.map(text(of:)) ?? ""
    #expect(message.contains("none of the 1 received action matched"))
    #expect(message.contains("FeatureAction.factLoaded(\"ten!\")"))
    // The unmatched actions are still there to be received.
    #expect(store.receivedActions.count == 1)
  }

  @Test("receive records an issue when nothing was received")
  func receiveNothing() {
    let store = makeFeatureStore(exhaustivity: .off)
    let recorded = issues {
      store.receive(Ping.self)
    }
    #expect(recorded.count == 1)
    #expect(recorded.first.map(text(of:))?.contains("no action was received") == true)
  }
}
