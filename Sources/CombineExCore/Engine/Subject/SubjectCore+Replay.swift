import Synchronization

// Replay (token holder only): what a subject that replays (``SubjectKind/replays``) gives a
// subscriber that is *behind*, a new one or one that had no demand when values came: the
// current value (``SubjectCore/replayValue``), or the kept values it has not received
// (``SubjectCore/replayBuffer``), then the completion. A conduit becomes behind on its own
// (``SubjectConduit/holdBack(_:seen:)``); its next request asks the token holder to catch it up
// (a ``SubjectEvent/demand(_:)`` event).

extension SubjectCore {
  /// A subscriber asked for values: a replaying subject may owe it the current value or kept
  /// values.
  @inlinable
  func handleDemand(_ conduit: SubjectConduit<Output, Failure>) {
    if kind.replaysLatestValues {
      catchUp(conduit)
    } else if completion == nil, let replayValue {
      conduit.offerCurrentValue(replayValue)
    }
  }

  /// Makes a new subscriber behind from the oldest kept value, if there is any; returns
  /// whether it did. (After a completion, the completion follows the kept values.)
  @inlinable
  func startReplaying(to conduit: SubjectConduit<Output, Failure>) -> Bool {
    guard let replayBuffer, !replayBuffer.isEmpty else { return false }
    conduit.state.bitwiseOr(SubjectConduitState.owesCurrentValue, ordering: .relaxed)
    replayBuffer.startFromOldest(conduit)
    return true
  }

  /// Delivers to a subscriber that is behind in the replay buffer the values it has not
  /// received, as far as its demand goes, then the completion once it has caught up (token
  /// holder only). Re-entrant: the cursor moves before each delivery, so a nested call (a
  /// value sent from inside the subscriber) carries on from where this one was.
  @usableFromInline
  func catchUp(_ conduit: SubjectConduit<Output, Failure>) {
    guard let replayBuffer else { return }
    while true {
      let state = conduit.state.load(ordering: .acquiring)
      Interleaving.point("replay.catchUp.loaded")
      if state & SubjectConduitState.terminated != 0 {
        replayBuffer.forget(conduit)
        return
      }
      if replayBuffer.isCaughtUp(conduit) {
        // No longer behind; the completion, if there was one, follows (it needs no demand).
        conduit.state.bitwiseAnd(~SubjectConduitState.owesCurrentValue, ordering: .relaxed)
        replayBuffer.forget(conduit)
        if let completion, conduit.terminate() {
          conduit.finish(completion)
          needsSweep = true
        }
        return
      }
      let demand = state & SubjectConduitState.demandMask
      guard demand > 0, let value = replayBuffer.takeNext(for: conduit) else { return }
      if demand != SubjectConduitState.unlimited {
        conduit.state.subtract(1, ordering: .relaxed)
      }
      let more = conduit.send(conduit, value)
      if more != .none { conduit.addDemand(more) }
    }
  }
}
