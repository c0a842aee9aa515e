#pragma once
// Signal<Args...>: typed slots called on emission.
//
//   Signal<int> hit;
//   Connection c = hit.connect([](int damage) { ... });
//   hit.emit(3);                    // calls every slot now, in connection order
//   hit.emit_deferred(tree, 3);     // copies 3; the slots get it at the tree's next delivery point
//   hit.disconnect(c);
//
// Slots receive the arguments as const references. Connecting or disconnecting inside a slot is safe:
// a disconnected slot is not called again (not even later in the same emission), a new one is first
// called by the next emission. Slots live in individually allocated entries, so a slot that connects
// more slots is not moved while it runs; entries disconnected during an emission are erased once the
// outermost emission returns.
//
// Deferred emissions: the arguments go into this signal's own pending list (its capacity is reused),
// each with a sequence number from the tree's SignalQueue; the signal registers with the queue once
// per delivery round. The tree delivers after every physics step and after the process tick, in queue
// order across all signals of the tree (see signal_queue.hpp). A signal destroyed with emissions
// pending unregisters itself, dropping them. The slots connected at delivery time receive them.
//
// A signal is neither copied nor moved (the queue and scoped connections point at it), and must not
// be destroyed by one of its own slots. Single-threaded, like the tree.

#include <cassert>
#include <cstdint>
#include <functional>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include "mf/scene/scene_tree.hpp"
#include "mf/scene/signal_queue.hpp"

namespace mf::scene {

// A connection's id within its signal; 0 is no connection.
struct Connection {
  std::uint64_t id = 0;
  friend constexpr bool operator==(Connection, Connection) = default;
};

// What ScopedConnection needs of a signal, whatever its argument types.
class SignalBase {
 public:
  virtual void disconnect(Connection connection) = 0;

 protected:
  ~SignalBase() = default;
  // Expires when the signal is destroyed: ScopedConnections hold a weak_ptr to it, so one that
  // outlives its signal does nothing.
  std::weak_ptr<SignalBase> lifetime() {
    if (!lifetime_) lifetime_ = std::shared_ptr<SignalBase>(this, [](SignalBase*) {});
    return lifetime_;
  }
  // Called first by the destructor, so scoped connections destroyed with the slots find no signal.
  void end_lifetime() { lifetime_.reset(); }

 private:
  std::shared_ptr<SignalBase> lifetime_;
};

// Disconnects when destroyed (or reset); move-only. Nodes keep these as members so their slots go
// away with them. Outliving the signal is harmless.
class ScopedConnection {
 public:
  ScopedConnection() = default;
  ScopedConnection(std::weak_ptr<SignalBase> signal, Connection connection)
      : signal_(std::move(signal)), connection_(connection) {}
  ~ScopedConnection() { reset(); }
  ScopedConnection(ScopedConnection&& o) noexcept
      : signal_(std::move(o.signal_)), connection_(std::exchange(o.connection_, Connection{})) {}
  ScopedConnection& operator=(ScopedConnection&& o) noexcept {
    if (this != &o) {
      reset();
      signal_ = std::move(o.signal_);
      connection_ = std::exchange(o.connection_, Connection{});
    }
    return *this;
  }
  ScopedConnection(const ScopedConnection&) = delete;
  ScopedConnection& operator=(const ScopedConnection&) = delete;

  void reset() {
    if (connection_.id != 0) {
      if (const std::shared_ptr<SignalBase> s = signal_.lock()) s->disconnect(connection_);
    }
    signal_.reset();
    connection_ = {};
  }
  // Keeps the slot connected for good and forgets it.
  Connection release() {
    signal_.reset();
    return std::exchange(connection_, Connection{});
  }
  Connection connection() const { return connection_; }

 private:
  std::weak_ptr<SignalBase> signal_;
  Connection connection_;
};

template <class... Args>
class Signal final : public SignalBase, private DeferredSource {
 public:
  using Slot = std::function<void(const Args&...)>;

  Signal() = default;
  ~Signal() {
    end_lifetime();
    if (queue_) queue_->remove_source(this);
  }
  Signal(const Signal&) = delete;
  Signal& operator=(const Signal&) = delete;

  Connection connect(Slot slot) {
    const Connection c{++last_id_};
    slots_.push_back(std::make_unique<Entry>(Entry{c.id, std::move(slot)}));
    return c;
  }
  ScopedConnection connect_scoped(Slot slot) { return {lifetime(), connect(std::move(slot))}; }

  void disconnect(Connection connection) override {
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      if (slots_[i]->id != connection.id) continue;
      if (emitting_ > 0) {
        slots_[i]->id = 0;  // skipped from now on, erased after the outermost emission
        erase_pending_ = true;
      } else {
        slots_.erase(slots_.begin() + static_cast<std::ptrdiff_t>(i));
      }
      return;
    }
  }
  std::size_t slot_count() const {
    std::size_t n = 0;
    for (const auto& e : slots_) n += e->id != 0;
    return n;
  }

  // Calls the slots connected now, in connection order.
  void emit(const Args&... args) {
    ++emitting_;
    const std::size_t count = slots_.size();  // slots connected during this emission wait for the next
    for (std::size_t i = 0; i < count; ++i) {
      Entry& e = *slots_[i];
      if (e.id != 0) e.slot(args...);
    }
    if (--emitting_ == 0 && erase_pending_) {
      erase_pending_ = false;
      std::erase_if(slots_, [](const std::unique_ptr<Entry>& e) { return e->id == 0; });
    }
  }

  // Queues a copy of the arguments for the tree's next delivery point.
  void emit_deferred(SceneTree& tree, const Args&... args) {
    SignalQueue& queue = tree.signal_queue();
    assert((queue_ == nullptr || queue_ == &queue) && "a signal's deferred emissions go to one tree at a time");
    pending_.push_back(Pending{queue.enqueue(this), std::tuple<Args...>(args...)});
    if (!queue_) {
      queue_ = &queue;
      queue.add_source(this);
    }
  }
  // Emissions queued and not yet delivered.
  std::size_t pending_count() const { return pending_.size() - delivered_; }

 private:
  struct Entry {
    std::uint64_t id;  // 0 once disconnected
    Slot slot;
  };
  struct Pending {
    std::uint64_t sequence;
    std::tuple<Args...> args;
  };

  void deliver_next() override {
    // Moved out first: a slot may queue more emissions, which can reallocate pending_.
    std::tuple<Args...> args = std::move(pending_[delivered_].args);
    ++delivered_;
    std::apply([this](const Args&... a) { emit(a...); }, args);
  }
  bool finish_round() override {
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(delivered_));
    delivered_ = 0;
    if (pending_.empty()) queue_ = nullptr;
    return !pending_.empty();
  }
  void detach_queue() override {
    pending_.clear();
    delivered_ = 0;
    queue_ = nullptr;
  }

  std::vector<std::unique_ptr<Entry>> slots_;
  std::vector<Pending> pending_;
  std::size_t delivered_ = 0;  // pending_[0, delivered_) went out in the current round
  SignalQueue* queue_ = nullptr;  // set while registered with a queue
  std::uint64_t last_id_ = 0;
  int emitting_ = 0;
  bool erase_pending_ = false;
};

}  // namespace mf::scene
