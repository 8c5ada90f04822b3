#include "sysc/trace/fst_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "verilated_fst_c.h"

#include "sysc/trace/gtkw_file.h"
#include "sysc/trace/trace_target.h"

namespace hxemu::sysc {

namespace {

std::string temp_beside(const std::string& path) {
  return path + ".tmp-" + std::to_string(::getpid());
}

void write_text(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write '" + path + "' (" + std::strerror(errno) + ")");
}

void move_into_place(const std::string& from, const std::string& to) {
  if (std::rename(from.c_str(), to.c_str()) != 0) {
    const std::string err = std::strerror(errno);
    ::unlink(from.c_str());
    throw std::runtime_error("cannot write '" + to + "' (rename: " + err + ")");
  }
}

}  // namespace

FstFile::FstFile(std::string path, std::string gtkw_path)
    : path_(std::move(path)), gtkw_path_(std::move(gtkw_path)), temp_(temp_beside(path_)) {}

FstFile::~FstFile() {
  if (!fst_) return;
  fst_->close();
  ::unlink(temp_.c_str());
}

void FstFile::open(const std::vector<TraceTarget*>& targets) {
  fst_ = std::make_unique<VerilatedFstC>();
  for (TraceTarget* t : targets) t->add_to(*fst_);
  fst_->open(temp_.c_str());
  if (!fst_->isOpen()) {
    fst_.reset();
    throw std::runtime_error("cannot write '" + path_ + "' (" + temp_ + " does not open)");
  }
}

void FstFile::dump(std::uint64_t time) { fst_->dump(time); }

void FstFile::finish(const std::vector<std::string>& scopes, std::uint64_t time_start) {
  fst_->close();
  fst_.reset();
  const std::string gtkw_temp = temp_beside(gtkw_path_);
  try {
    write_text(gtkw_temp, gtkw_text(temp_, path_, scopes, time_start));
  } catch (...) {
    ::unlink(gtkw_temp.c_str());
    ::unlink(temp_.c_str());
    throw;
  }
  try {
    move_into_place(temp_, path_);
  } catch (...) {
    ::unlink(gtkw_temp.c_str());
    throw;
  }
  move_into_place(gtkw_temp, gtkw_path_);
}

}  // namespace hxemu::sysc
