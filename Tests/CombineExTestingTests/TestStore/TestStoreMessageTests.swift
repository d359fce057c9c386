import CombineExStore
import CombineExTesting
import Foundation
import Testing

// TestStore's messages write actions and states as Swift's `print` does, without module names.

/// A state with a nested enum, whose `dump` names the module.
struct Mode: Equatable {
  enum Kind: Equatable {
    case idle
    case busy(Int)
  }
  var kind = Kind.idle
}

/// Sets the mode.
enum ModeAction: StoreAction, Equatable {
  case start(Int)
  case answer(Result<[String], ModeFailure>)
}

struct ModeFailure: Error, Equatable {}

func modeReducer(_ state: inout Mode, _ action: any StoreAction) {
  if case .start(let number)? = action as? ModeAction { state.kind = .busy(number) }
}

@Suite("TestStore messages")
struct TestStoreMessageTests {
  @Test("a state diff names nested types without their module")
  func diffWithoutModules() {
    let store = TestStore(reducer: modeReducer, state: Mode())
    let recorded = issues {
      store.send(ModeAction.start(1)) { $0.kind = .busy(2) }
    }
    let message = recorded.first.map(text(of:)) ?? ""
    let diff = """
        ▿ Mode
          ▿ kind: Mode.Kind.busy
      −     - busy: 2
      +     - busy: 1
      """
    #expect(message.contains(diff))
    #expect(!message.contains("CombineExTestingTests."))
  }

  @Test("a received action's payload is written without module names")
  func receivedActionWithoutModules() {
    let answering: Middleware<Mode> = { dispatch, _, next in
      { action in
        next(action)
        if case .start? = action as? ModeAction { dispatch(ModeAction.answer(.success(["a"]))) }
      }
    }
    let store = TestStore(reducer: modeReducer, state: Mode(), middlewares: [answering])
    store.send(ModeAction.start(1)) { $0.kind = .busy(1) }
    let recorded = issues {
      store.receive(ModeAction.start(2))
    }
    #expect(
      recorded.first.map(text(of:))
        == #"Expected to receive ModeAction.start(2), but received ModeAction.answer(Result<Array<String>, ModeFailure>.success(["a"]))."#
    )
  }

  @Test("a retained publisher action still running is named by its kind and line")
  func publisherActionByLine() {
    let subject = PassthroughSubject<Int, Never>()
    let store = TestStore(
      reducer: modeReducer, state: Mode(), middlewares: [createPublisherMiddleware()])
    let line = #line + 1
    let retained = RetainedPublisherAction<Mode> { _, _, cancellables, cleanup in
      subject.handleCleanup(cleanup).sink { _ in }.store(in: &cancellables)
    }
    store.send(retained)
    let running = store.runningEffects.first ?? ""
    #expect(
      running.contains(
        "started by the sent action RetainedPublisherAction (TestStoreMessageTests.swift:\(line))"))
    store.skipInFlightEffects()
  }
}
